"""Fill abstract members of core's asset contracts that the Newton backend does not support yet."""

from __future__ import annotations

import abc
import inspect
from collections.abc import Iterable


def _raiser(owner: str, name: str, *, is_property: bool):
    message = f"{owner}.{name} is not supported by the Newton backend yet."

    if is_property:

        def getter(self):
            raise NotImplementedError(message)

        getter.__name__ = name
        getter.__doc__ = f"Not supported: raises :class:`NotImplementedError`. ({message})"
        return property(getter)

    def method(self, *args, **kwargs):
        raise NotImplementedError(message)

    method.__name__ = name
    method.__doc__ = f"Not supported: raises :class:`NotImplementedError`. ({message})"
    return method


def mark_unsupported(cls: type, names: Iterable[str]) -> type:
    """Define each abstract member in ``names`` on ``cls`` so that calling it raises ``NotImplementedError``.

    Each raiser names ``cls.<member>``; members already implemented (by ``cls`` or a mixin) are left alone.
    The class's set of abstract members is recomputed afterwards.

    Args:
        cls: The concrete asset or data class.
        names: Abstract member names of its base class that are not supported.

    Returns:
        ``cls`` itself.
    """
    for name in names:
        current = inspect.getattr_static(cls, name, None)
        if current is not None and not getattr(current, "__isabstractmethod__", False):
            continue  # implemented by the class or one of its mixins
        is_property = isinstance(current, property)
        setattr(cls, name, _raiser(cls.__name__, name, is_property=is_property))
    abc.update_abstractmethods(cls)
    return cls
