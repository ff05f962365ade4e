"""IndexResolver: selectors resolve to int32 Warp arrays, repeated selectors reuse their conversion."""

from __future__ import annotations

import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE

from isaaclab_newton.assets.index_cache import IndexResolver


def _values(array: wp.array) -> list[int]:
    return array.numpy().tolist()


def test_all_selectors_give_all_indices():
    """None and slice(None) return the array of all indices."""
    resolver = IndexResolver(5, TEST_DEVICE)
    assert resolver.resolve(None) is resolver.all_ids
    assert resolver.resolve(slice(None)) is resolver.all_ids
    assert _values(resolver.all_ids) == [0, 1, 2, 3, 4]


def test_same_tensor_is_converted_once():
    """A torch selector passed twice returns the same int32 array, holding its values."""
    resolver = IndexResolver(5, TEST_DEVICE)
    ids = torch.tensor([3, 1], device=TEST_DEVICE)
    first = resolver.resolve(ids)
    assert first.dtype == wp.int32 and _values(first) == [3, 1]
    assert resolver.resolve(ids) is first


def test_torch_form_is_cached_with_the_warp_form():
    """resolve_torch gives int64 tensors: all ids by identity, a repeated list or int32 tensor converted once."""
    resolver = IndexResolver(5, TEST_DEVICE)
    assert resolver.resolve_torch(None) is resolver.all_ids_torch
    assert resolver.resolve_torch(slice(None)) is resolver.all_ids_torch
    ids = torch.tensor([4, 2], dtype=torch.int32, device=TEST_DEVICE)
    first = resolver.resolve_torch(ids)
    assert first.dtype == torch.int64 and first.tolist() == [4, 2]
    assert resolver.resolve_torch(ids) is first
    assert resolver.resolve_torch([0, 3]) is resolver.resolve_torch([0, 3])
    assert resolver.resolve_torch(slice(1, 3)).tolist() == [1, 2]


def test_in_place_edit_is_seen():
    """Editing a cached selector tensor in place resolves to the new indices."""
    resolver = IndexResolver(5, TEST_DEVICE)
    ids = torch.tensor([3, 1], device=TEST_DEVICE)
    resolver.resolve(ids)
    ids[0] = 4
    assert _values(resolver.resolve(ids)) == [4, 1]


def test_lists_and_slices_are_keyed_by_value():
    """Equal lists (and equal slices) share one conversion; a different list gets its own."""
    resolver = IndexResolver(6, TEST_DEVICE)
    first = resolver.resolve([0, 2])
    assert resolver.resolve([0, 2]) is first
    assert _values(resolver.resolve([2, 0])) == [2, 0]
    assert _values(resolver.resolve(slice(1, 6, 2))) == [1, 3, 5]
    assert resolver.resolve(slice(1, 6, 2)) is resolver.resolve(slice(1, 6, 2))


def test_int32_warp_array_passes_through_and_others_convert():
    """An int32 Warp array is used as given; an int64 one is converted to int32."""
    resolver = IndexResolver(5, TEST_DEVICE)
    ids32 = wp.array([1, 2], dtype=wp.int32, device=TEST_DEVICE)
    assert resolver.resolve(ids32) is ids32
    ids64 = wp.array([4, 0], dtype=wp.int64, device=TEST_DEVICE)
    converted = resolver.resolve(ids64)
    assert converted.dtype == wp.int32 and _values(converted) == [4, 0]


def test_inference_tensors_are_converted_each_call():
    """Inference tensors (no version counter) resolve correctly, without caching."""
    resolver = IndexResolver(5, TEST_DEVICE)
    with torch.inference_mode():
        ids = torch.tensor([2, 4], device=TEST_DEVICE)
    assert _values(resolver.resolve(ids)) == [2, 4]


def test_cache_is_bounded():
    """At most ``capacity`` selectors are kept; older ones are converted again, still correctly."""
    resolver = IndexResolver(10, TEST_DEVICE, capacity=2)
    for i in range(5):
        assert _values(resolver.resolve([i, i + 1])) == [i, i + 1]
    assert len(resolver._cache) == 2  # private: the cache bound under test


def test_bool_and_float_selectors_raise():
    """Bool and float selectors raise TypeError naming the selector and the mask variant, none is cast to indices."""
    resolver = IndexResolver(3, TEST_DEVICE, what="Thing env_ids")
    for ids in (
        torch.tensor([True, False, True], device=TEST_DEVICE),
        torch.tensor([0.0, 1.0], device=TEST_DEVICE),
        [True, False],
    ):
        with pytest.raises(TypeError, match=r"Thing env_ids must be integer indices.*_mask variant"):
            resolver.resolve(ids)


def test_more_indices_than_entries_raise():
    """Selecting 4 indices of 3 entries raises ValueError naming the selector."""
    with pytest.raises(ValueError, match="Thing env_ids selects 4 entries but there are 3"):
        IndexResolver(3, TEST_DEVICE, what="Thing env_ids").resolve([0, 1, 2, 0])
