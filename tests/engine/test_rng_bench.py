"""A quick run of bench/rng.py: a biased shuffle would show up as absurdly small p-values."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rng.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_rng", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_twenty_thousand_decks_look_uniform() -> None:
    result = load_bench().run(20_000)
    assert result["position_dof"] == 2601
    assert result["first_dof"] == 51
    assert result["position_p"] > 1e-6
    assert result["first_p"] > 1e-6


def test_wilson_hilferty_fallback_is_close_to_known_quantiles() -> None:
    bench = load_bench()
    # chi2(51) 95th percentile is 68.67; chi2(2601) median is about 2600.33.
    p95, _ = bench.chi2_sf(68.669, 51)
    median, _ = bench.chi2_sf(2600.33, 2601)
    assert math.isclose(p95, 0.05, abs_tol=0.002)
    assert math.isclose(median, 0.5, abs_tol=0.002)
