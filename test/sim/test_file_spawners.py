"""MJCF/URDF spawner files: parse and importer errors name the file, the element and the line."""

from __future__ import annotations

import newton
import pytest
import warp as wp

from isaaclab_newton.cloner.source_builder import import_file_asset
from isaaclab_newton.sim import MjcfFileCfg, UrdfFileCfg

_MJCF_UNCLOSED = """<mujoco model="m">
  <worldbody>
    <body name="b" pos="0 0 1"><geom type="box" size="0.1 0.1 0.1"
  </worldbody>
</mujoco>
"""

_MJCF_BAD_VALUE = """<mujoco model="m">
  <worldbody>
    <body name="b" pos="0 0 1">
      <freejoint/>
      <geom name="box" type="box" size="0.1 abc 0.1"/>
    </body>
  </worldbody>
</mujoco>
"""

_URDF_MISMATCHED = """<robot name="r">
  <link name="base">
  </lnk>
</robot>
"""


def test_malformed_mjcf_is_rejected_at_spawn(make_sim, tmp_path):
    """Spawning an MJCF with an unclosed tag raises ValueError naming the file and the line."""
    make_sim()
    path = tmp_path / "unclosed.xml"
    path.write_text(_MJCF_UNCLOSED)
    cfg = MjcfFileCfg(asset_path=str(path))
    with pytest.raises(ValueError, match=r"MjcfFileCfg.asset_path '.*unclosed.xml' is not well-formed MJCF.*line 4"):
        cfg.func("/World/Robot", cfg)


def test_malformed_urdf_is_rejected_at_import(tmp_path):
    """Importing a URDF with a mismatched closing tag raises ValueError naming the file and the line."""
    path = tmp_path / "mismatched.urdf"
    path.write_text(_URDF_MISMATCHED)
    with pytest.raises(ValueError, match=r"mismatched.urdf' is not well-formed URDF.*line 3"):
        import_file_asset(newton.ModelBuilder(), UrdfFileCfg(asset_path=str(path)), wp.transform_identity())


def test_bad_mjcf_value_names_element_attribute_and_line(tmp_path):
    """An MJCF geom size 'abc' raises ValueError naming the file, <geom> 'box', attribute 'size' and line 5."""
    path = tmp_path / "bad_value.xml"
    path.write_text(_MJCF_BAD_VALUE)
    with pytest.raises(
        ValueError, match=r"bad_value.xml'.*element <geom> name='box', attribute 'size' \(line 5\).*abc"
    ):
        import_file_asset(newton.ModelBuilder(), MjcfFileCfg(asset_path=str(path)), wp.transform_identity())


def test_mjcf_given_to_urdf_cfg_names_the_format_and_cfg(tmp_path):
    """An MJCF file in UrdfFileCfg raises ValueError saying it holds MJCF and naming MjcfFileCfg."""
    path = tmp_path / "model.xml"
    path.write_text(_MJCF_BAD_VALUE.replace("abc", "0.1"))
    with pytest.raises(ValueError, match=r"UrdfFileCfg.asset_path '.*model.xml' holds MJCF.*<mujoco>.*MjcfFileCfg"):
        import_file_asset(newton.ModelBuilder(), UrdfFileCfg(asset_path=str(path)), wp.transform_identity())


def test_urdf_given_to_mjcf_cfg_names_the_format_and_cfg(make_sim, tmp_path):
    """A URDF file in MjcfFileCfg is refused at spawn, saying it holds URDF and naming UrdfFileCfg."""
    make_sim()
    path = tmp_path / "robot.urdf"
    path.write_text('<robot name="r">\n  <link name="base"/>\n</robot>\n')
    cfg = MjcfFileCfg(asset_path=str(path))
    with pytest.raises(ValueError, match=r"MjcfFileCfg.asset_path '.*robot.urdf' holds URDF.*<robot>.*UrdfFileCfg"):
        cfg.func("/World/Robot", cfg)


_MJCF_COLOURED = """<mujoco model="m">
  <asset><material name="blue" rgba="0 0 1 1"/></asset>
  <worldbody>
    <body name="b" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" rgba="1 0 0 1"/>
      <geom type="sphere" size="0.1" pos="0 0 0.3" material="blue"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_mjcf_rgba_and_material_colours_become_shape_colours(tmp_path):
    """A geom's rgba (red) and its material's rgba (blue) are the imported shapes' colours, which the camera shades."""
    path = tmp_path / "coloured.xml"
    path.write_text(_MJCF_COLOURED)
    builder = newton.ModelBuilder()
    import_file_asset(builder, MjcfFileCfg(asset_path=str(path)), wp.transform_identity())
    assert [tuple(c) for c in builder.shape_color] == [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]
