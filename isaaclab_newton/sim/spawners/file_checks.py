"""Checks of MJCF/URDF files at spawn and import time, with errors naming the file, the element and the line."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

_QUOTED = re.compile(r"""['"]([^'"]+)['"]""")
_ROOTS = {"urdf": ("robot", "UrdfFileCfg"), "mjcf": ("mujoco", "MjcfFileCfg")}
"""Per file format: the root element its files have and the spawner cfg that imports them."""


def check_xml_file(path: str, *, file_format: str, field: str) -> None:
    """Parse an MJCF/URDF file; raise naming the file and line when it is not well-formed XML, or the format it
    holds and the cfg to use when its root element is the other format's (``<robot>``: URDF, ``<mujoco>``: MJCF).

    Args:
        path: The file.
        file_format: ``"mjcf"`` or ``"urdf"`` (for the message).
        field: The setting that named the file, e.g. ``"MjcfFileCfg.asset_path"``.

    Raises:
        ValueError: If the XML does not parse or is not a ``file_format`` file.
    """
    try:
        root = ET.parse(path).getroot().tag
    except ET.ParseError as exc:
        line, column = exc.position
        raise ValueError(
            f"{field} {path!r} is not well-formed {file_format.upper()} XML: {exc} (line {line}, column"
            f" {column + 1}). Fix the XML at that position."
        ) from exc
    expected, _ = _ROOTS[file_format]
    if root == expected:
        return
    for other, (other_root, other_cfg) in _ROOTS.items():
        if root == other_root:
            raise ValueError(
                f"{field} {path!r} holds {other.upper()} (root element <{root}>), not {file_format.upper()};"
                f" spawn it with {other_cfg}(asset_path={path!r}, ...)."
            )
    raise ValueError(
        f"{field} {path!r} has the root element <{root}>, which is neither URDF (<robot>) nor MJCF (<mujoco>);"
        " give MjcfFileCfg a MuJoCo XML file, UrdfFileCfg a URDF file, NewtonUsdFileCfg a USD file."
    )


def describe_import_error(path: str, *, file_format: str, field: str, error: Exception) -> ValueError:
    """Return a ``ValueError`` naming the file and, where the message quotes a value, the element holding it.

    Newton's importers report bad attribute values without a location (``could not convert string to float:
    'abc'``); the quoted value is looked up in the file's attributes to name the element, attribute and line.

    Args:
        path: The imported file.
        file_format: ``"mjcf"`` or ``"urdf"``.
        field: The setting that named the file.
        error: The importer's exception.
    """
    location = ""
    match = _QUOTED.search(str(error))
    if match is not None:
        location = _locate_attribute_value(path, match.group(1))
    where = f" at {location}" if location else ""
    return ValueError(
        f"{field} {path!r}: Newton's {file_format.upper()} importer failed{where}: {type(error).__name__}: {error}."
        " Fix that value in the file."
    )


def _locate_attribute_value(path: str, value: str) -> str:
    """Describe the first element with an attribute equal to (or a list containing) ``value``, or ``""``."""
    with open(path, encoding="utf-8", errors="replace") as file:
        text = file.read()
    token = re.escape(value)
    pattern = re.compile(rf"""([\w:.-]+)\s*=\s*(['"])(?:[^'"]*\s)?{token}(?:\s[^'"]*)?\2""")
    found = pattern.search(text)
    if found is None:
        return ""
    start = text.rfind("<", 0, found.start())
    tag = re.match(r"<\s*([\w:.-]+)", text[start:]) if start >= 0 else None
    element = f"<{tag.group(1)}>" if tag else "an element"
    end = text.find(">", found.end())
    name = re.search(r"""\bname\s*=\s*['"]([^'"]*)['"]""", text[start:end]) if start >= 0 else None
    named = f" name={name.group(1)!r}" if name else ""
    line = text.count("\n", 0, found.start()) + 1
    return f"element {element}{named}, attribute {found.group(1)!r} (line {line})"
