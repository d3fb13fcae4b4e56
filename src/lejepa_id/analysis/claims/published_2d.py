"""Claim ``published_2d``: the 2d runs reproduce the published code's R²(h → z).

v1 compared with values the published code gave on another device (an H200) within a
margin of 0.005, about 25 seed SDs: it passed while the three MLP lejepa settings and
spiral whiten sat 5 to 9 seed SDs below. v2 compares with the published code run on the
same device with the same seeds, read from :data:`REFERENCE_FILE`, in units of the seed
standard deviation of each setting; without such a reference it is not shown.

The reference file (JSON): ``{"device": "cpu", "source": "...", "values": [{"mixing":
"spiral", "mode": "lejepa", "seed": 1337, "r2_hz": 0.98}, ...]}``; ``device`` is
compared with the runs' recorded device by kind (``cpu``, ``cuda``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.claims.base import Claim, Premise
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.plotting import with_labels

# The published code's R^2(h -> z) on the 2d config, seed 1337, 20,000 steps, measured on
# an H200: (mixing label, mode) -> value (v1's reference).
PUBLISHED_2D = {
    ("spiral", "lejepa"): 0.9858,
    ("banana", "lejepa"): 0.9860,
    ("sinusoid", "lejepa"): 0.9859,
    ("nvp", "lejepa"): 0.99998,
    ("spiral", "whiten"): 0.9949,
}
PUBLISHED_LAM = {"lejepa": 1e-3, "whiten": 0.5}
REFERENCE_FILE = Path(__file__).resolve().parents[1] / "published_2d_same_device.json"
REFERENCE = "published_2d_same_device"

SCOPE = Premise("scope", "the published setting: seed 1337, 20,000 steps, N = 2")
SAME_DEVICE = Premise(
    "same-device reference",
    "the published code's values for the same settings and seeds, run on the device the "
    "runs here were trained on (a committed reference file); values from another device "
    "differ by more than seed noise and are no reference",
)
V1 = ClaimRule(
    id="published_2d",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="The 2d runs reproduce the published code's R²(h → z) (seed 1337)",
    metric="r2_hz: R²(h → z) on the evaluation set",
    filter="finished runs with N = 2, Gaussian latents, ρ = 0.95, 20,000 steps, seed 1337, "
    "λ = 1e-3 (lejepa) or 0.5 (whiten), for which a published value exists",
    statistic="max over matched runs of |R² here − R² published| (one seed on each side: "
    "a direct comparison, no test)",
    rule="pass: max ≤ 0.005; fail: some run differs by more than 0.02; not shown: in "
    "between. The sign of every difference, in seed standard deviations of its setting, "
    "is reported beside (a systematic offset)",
    scope=SCOPE.statement,
    premises=(SCOPE,),
    thresholds={"agree": 0.005, "disagree": 0.02, "offset_sd": 2.0},
)
V2 = V1.amend(
    date="2026-12-01",
    reason="v1's margin (0.005) was about 25 seed SDs and its reference came from another "
    "device; a pass hid an offset of 5 to 9 seed SDs. v2 compares with the published code "
    "on the same device and seeds, in seed SDs",
    text="The 2d runs reproduce the published code's R²(h → z) run on the same device with "
    "the same seeds, within seed noise",
    filter="finished runs with N = 2, Gaussian latents, ρ = 0.95, 20,000 steps, λ = 1e-3 "
    "(lejepa) or 0.5 (whiten), on a device and with seeds for which the reference holds a "
    "published value",
    statistic="per setting, (mean here − mean published) over the reference's seeds, "
    "divided by the standard deviation over the seeds here of that setting",
    rule="pass: every setting within 2 seed SDs; fail: some setting beyond 3 seed SDs; "
    "not shown: otherwise, or without a same-device reference or a seed spread",
    premises=(SCOPE, SAME_DEVICE),
    thresholds={"agree": None, "disagree": None, "agree_sd": 2.0, "disagree_sd": 3.0},
)


def read_reference(path: Path = REFERENCE_FILE) -> dict[str, Any] | None:
    """The committed same-device reference, or None when there is none."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    if not isinstance(data, dict) or "device" not in data or "values" not in data:
        raise ValueError(f"{path}: a reference needs 'device' and 'values'")
    return data


def _setting(rows: pd.DataFrame, label: str, mode: str) -> pd.DataFrame:
    return rows[
        (rows["label"] == label) & (rows["mode"] == mode) & (rows["dim"] == 2)
        & (rows["law"] == "gaussian") & (rows["rho"] == 0.95) & (rows["steps"] == 20000)
        & np.isclose(rows["lam"], PUBLISHED_LAM.get(mode, np.nan))
    ]  # fmt: skip


def _seed_sd(sel: pd.DataFrame) -> float | None:
    return float(sel["r2_hz"].std()) if sel["seed"].nunique() > 1 else None


@register_claim(
    V1,
    counterexample=lambda rule: evidence([{"seed": 1337, "r2_hz": 0.9}]),
    premise_unmet={"scope": lambda rule: evidence([{"seed": 1337, "r2_hz": 0.98}])},
)
def judge_v1(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    frame = ev.finished()
    rows = frame if frame.empty else with_labels(frame)
    matched: dict[str, dict[str, Any]] = {}
    for (label, mode), published in PUBLISHED_2D.items():
        if rows.empty:
            break
        setting = _setting(rows, label, mode)
        for run in setting[setting["seed"] == 1337].itertuples():
            sd = _seed_sd(setting)
            diff = float(run.r2_hz) - published
            matched[f"{run.experiment}/{label}_{mode}"] = {
                "here": float(run.r2_hz),
                "published": published,
                "difference": diff,
                "seed_sd": sd,
                "difference_in_seed_sd": diff / sd if sd else None,
            }
    claim.values = {"runs": matched, "margin": rule.t("agree")}
    claim.count(judged=len(matched))
    if not matched:
        claim.summary = "no full-length 2d run at seed 1337"
        return claim
    worst = max(abs(v["difference"]) for v in matched.values())
    claim.values["max_abs_difference"] = worst
    negative = sum(v["difference"] < 0 for v in matched.values())
    claim.values["n_negative"] = negative
    # Beyond offset_sd seed standard deviations a difference is not seed noise; several
    # such, all of one sign, are an offset of the runs here, whatever the verdict.
    beyond = [
        np.sign(v["difference"])
        for v in matched.values()
        if v["difference_in_seed_sd"] is not None
        and abs(v["difference_in_seed_sd"]) >= rule.t("offset_sd")
    ]
    claim.values["n_beyond_seed_noise"] = len(beyond)
    claim.values["systematic_offset"] = len(beyond) >= 3 and len(set(beyond)) == 1
    claim.summary = "; ".join(
        f"{k}: {v['here']:.5f} vs {v['published']:.5f}"
        + (
            f" ({v['difference_in_seed_sd']:+.1f} seed sd)"
            if v["difference_in_seed_sd"] is not None
            else ""
        )
        for k, v in matched.items()
    )
    claim.summary += f"; {negative} of {len(matched)} differences negative"
    if claim.values["systematic_offset"]:
        side = "below" if beyond[0] < 0 else "above"
        claim.summary += (
            f"; systematic offset: {len(beyond)} differences beyond {rule.t('offset_sd'):g} "
            f"seed sd, all {side} the published values"
        )
        claim.notes.append(
            f"systematic offset: the runs here are {side} the published code's values in "
            f"{len(beyond)} settings by more than {rule.t('offset_sd'):g} seed standard "
            "deviations, even where each is within the margin"
        )
    if worst <= rule.t("agree"):
        claim.verdict = "pass"
    elif worst > rule.t("disagree"):
        claim.verdict = "fail"
    else:
        claim.verdict = "not shown"
    return claim


def _device_kind(device: Any) -> str:
    return str(device).split(":")[0].strip().lower()


def _reference(rule: ClaimRule, ev: Evidence) -> dict[str, Any] | None:
    return ev.reference(REFERENCE, read_reference)


def _fabricated(here: float, reference: float, device: str = "cpu", steps: int = 20000) -> Evidence:
    rows = [
        {"seed": s, "r2_hz": here + 0.001 * (s - 1338), "device": "cpu", "experiment": "2d",
         "steps": steps}
        for s in (1337, 1338, 1339)
    ]  # fmt: skip
    ref = {
        "device": device,
        "values": [{"mixing": "spiral", "mode": "lejepa", "seed": s, "r2_hz": reference}
                   for s in (1337, 1338, 1339)],
    }  # fmt: skip
    ev = evidence(rows)
    return Evidence(frame=ev.frame, references={REFERENCE: ref})


@register_claim(
    V2,
    counterexample=lambda rule: _fabricated(0.95, 0.99),
    premise_unmet={
        "scope": lambda rule: _fabricated(0.95, 0.99, steps=2000),
        "same-device reference": lambda rule: _fabricated(0.95, 0.99, device="cuda"),
    },
)
def judge_v2(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    frame = ev.finished()
    rows = frame if frame.empty else with_labels(frame)
    candidates = rows if rows.empty else rows[(rows["dim"] == 2) & (rows["law"] == "gaussian")]
    published_setting = sum(
        len(_setting(candidates, label, mode)) for (label, mode) in PUBLISHED_2D
    ) if len(candidates) else 0  # fmt: skip
    if not published_setting:
        claim.summary = "no 2d run of the published setting (20,000 steps, ρ = 0.95)"
        return claim
    reference = _reference(rule, ev)
    published = rows.iloc[0:0]
    if reference is not None:
        ref = pd.DataFrame(reference["values"])
        kind = _device_kind(reference["device"])
        claim.values["reference_device"] = reference["device"]
        claim.values["reference_source"] = reference.get("source", "")
        published = ref
    settings: dict[str, dict[str, Any]] = {}
    n_judged = 0
    in_setting = 0
    for (label, mode), ref_rows in published.groupby(["mixing", "mode"]) if len(published) else []:
        setting = _setting(candidates, label, mode)
        in_setting += len(setting)
        same = setting[setting["device"].map(_device_kind) == kind] if len(setting) else setting
        seeds = sorted(set(same["seed"]) & set(ref_rows["seed"]))
        if not seeds:
            continue
        here = same[same["seed"].isin(seeds)]
        sd = _seed_sd(same)
        diff = float(here["r2_hz"].mean() - ref_rows[ref_rows["seed"].isin(seeds)]["r2_hz"].mean())
        n_judged += len(here)
        for exp, sel in here.groupby("experiment"):
            settings[f"{exp}/{label}_{mode}"] = {
                "here_mean": float(sel["r2_hz"].mean()),
                "published_mean": float(
                    ref_rows[ref_rows["seed"].isin(sorted(set(sel["seed"])))]["r2_hz"].mean()
                ),
                "seeds": [int(s) for s in sorted(set(sel["seed"]))],
                "difference": diff,
                "seed_sd": sd,
                "difference_in_seed_sd": diff / sd if sd else None,
            }
    claim.values["settings"] = settings
    setting_rows = sum(len(_setting(candidates, label, mode)) for (label, mode) in PUBLISHED_2D)
    claim.count(judged=n_judged, premise_unmet=max(setting_rows, in_setting) - n_judged)
    if not settings:
        if reference is None:
            claim.summary = "no reference file of the published code on this device"
            claim.premise_unmet("no same-device reference")
        elif setting_rows or in_setting:
            devices = sorted({_device_kind(d) for d in candidates["device"]})
            claim.premise_unmet(
                f"no same-device reference (reference on {reference['device']}, runs on "
                f"{', '.join(devices)}) or no run of the published setting"
            )
        else:
            claim.premise_unmet("no run of the published setting (20,000 steps, ρ = 0.95)")
        return claim
    claim.summary = "; ".join(
        f"{k}: {v['here_mean']:.5f} vs {v['published_mean']:.5f} (seeds "
        f"{', '.join(str(s) for s in v['seeds'])}"
        + (
            f"; {v['difference_in_seed_sd']:+.1f} seed SD)"
            if v["difference_in_seed_sd"] is not None
            else "; no seed spread)"
        )
        for k, v in settings.items()
    )
    claim.summary += f"; reference device {claim.values['reference_device']}"
    units = [v["difference_in_seed_sd"] for v in settings.values()]
    known = [abs(u) for u in units if u is not None]
    if known and max(known) > rule.t("disagree_sd"):
        claim.verdict = "fail"
    elif known and len(known) == len(units) and max(known) <= rule.t("agree_sd"):
        claim.verdict = "pass"
    elif not known:
        claim.premise_unmet("one seed per setting: no seed spread to measure the offset in")
    else:
        claim.verdict = "not shown"
    side = [np.sign(u) for u in units if u is not None and abs(u) >= rule.t("agree_sd")]
    if len(side) >= 2 and len(set(side)) == 1:
        claim.notes.append(
            f"offset: {len(side)} settings {'below' if side[0] < 0 else 'above'} the "
            f"published values by ≥ {rule.t('agree_sd'):g} seed SDs"
        )
    return claim
