"""Tests of the Coq development in ``formal/`` and of its checker ``lejepa_id.verify``.

Without ``coqc`` these tests skip, except under CI (environment variable ``CI`` set),
where Coq is installed on purpose and its absence is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lejepa_id import verify

FORMAL = Path(__file__).resolve().parents[1] / "formal"


def _require_coq() -> None:
    if shutil.which("coqc") is None:
        if os.environ.get("CI"):
            pytest.fail(f"coqc is not installed in CI; run: {verify.INSTALL_HINT}")
        pytest.skip(f"coqc not installed ({verify.INSTALL_HINT})")


@pytest.fixture(scope="module")
def real_report() -> verify.Report:
    """One from-scratch compile and audit of the real development, shared by the tests."""
    _require_coq()
    return verify.check(FORMAL)


def _small_copy(tmp_path: Path, approximate_source: str | None = None) -> Path:
    """A copy of formal/ reduced to Prelude + Approximate, so planted tests stay fast."""
    dst = tmp_path / "formal"
    shutil.copytree(FORMAL, dst, ignore=verify._ignore_build_outputs)
    (dst / "_CoqProject").write_text(
        "-R . LejepaId\n-arg -w -arg -ambiguous-paths\nPrelude.v\nApproximate.v\n"
    )
    (dst / "theorems.txt").write_text(
        "approximate | LejepaId.Approximate.kappa_pos | 2 rho (1 - rho) > 0\n"
        "approximate | LejepaId.Approximate.approx_identifiability | the bound\n"
    )
    if approximate_source is not None:
        (dst / "Approximate.v").write_text(approximate_source)
    return dst


KAPPA_PROOF = "Proof. intros rho [H0 H1]. unfold kappa. nra. Qed."


def test_real_development_compiles_and_passes(real_report: verify.Report) -> None:
    assert real_report.errors == []
    assert real_report.ok, verify.summary(real_report)
    listed = verify.parse_theorem_list(FORMAL)
    assert [t.name for t in real_report.theorems] == [t.name for t in listed]
    # Every group of SPEC section 9 is represented.
    assert {t.group for t in real_report.theorems} == set(verify.GROUP_TITLES)


def test_axiom_budget_and_named_axioms(real_report: verify.Report) -> None:
    names = {d.name for d in real_report.axioms}
    # Fewer than the 13 axioms of the published Lean development.
    assert len(names) < 13
    # Every axiom carries a comment naming the standard result it stands for.
    assert all(d.doc for d in real_report.axioms)
    # Facts the Lean development assumed and this one proves.
    proved = {
        "LejepaId.Forward.mehler_summable",
        "LejepaId.Converse.affine_score_gaussian",
        "LejepaId.Dirichlet.am_gm",
        "LejepaId.Dirichlet.jensen_exp",
        "LejepaId.Dirichlet.isometry_linear",
        "LejepaId.Planning.cost_push",
        "LejepaId.Planning.step_push",
    }
    status = {t.name: t.status for t in real_report.theorems}
    for name in proved:
        assert status[name] == "verified", name
    # The assembled planning and Dirichlet theorems need no project axiom at all.
    assert status["LejepaId.Planning.planning_orthogonal_values"] == "verified"
    assert status["LejepaId.Dirichlet.dirichlet_identifiability"] == "verified"
    # Only the standard classical-reals axioms appear underneath.
    for t in real_report.theorems:
        assert set(t.standard) <= set(verify.STANDARD_AXIOMS)


def test_markdown_table_lists_everything(real_report: verify.Report) -> None:
    table = verify.render_markdown(real_report)
    assert "Overall: PASS" in table
    for t in real_report.theorems:
        assert f"`{t.short_name}`" in table
    for d in real_report.declared:
        assert f"`{d.name}`" in table


def test_committed_table_is_current(real_report: verify.Report) -> None:
    committed = (FORMAL / "VERIFICATION.md").read_text()
    fresh = verify.render_markdown(real_report)
    assert committed == fresh, "regenerate: lejepa-id verify --table formal/VERIFICATION.md"


def test_planted_admitted_is_caught(tmp_path: Path) -> None:
    _require_coq()
    src = (FORMAL / "Approximate.v").read_text()
    assert KAPPA_PROOF in src
    planted = src.replace(KAPPA_PROOF, "Proof. Admitted.")
    report = verify.check(_small_copy(tmp_path, planted))
    assert not report.ok
    # The source scan names the file and line ...
    assert any("admitted proof: Approximate.v" in e for e in report.errors)
    # ... and, independently, Print Assumptions exposes the admitted lemma as an
    # undeclared axiom of every main theorem that uses it.
    by_name = {t.short_name: t for t in report.theorems}
    assert "kappa_pos" in " ".join(by_name["kappa_pos"].undeclared)
    assert "kappa_pos" in " ".join(by_name["approx_identifiability"].undeclared)
    assert by_name["approx_identifiability"].status == "FAILED"


def test_planted_undeclared_assumption_is_caught(tmp_path: Path) -> None:
    _require_coq()
    # A top-level Hypothesis is an axiom that neither `Axiom` nor `Admitted` spells;
    # only the Print Assumptions audit can see it.
    src = (FORMAL / "Approximate.v").read_text()
    sneaky = (
        "Hypothesis sneaky : forall rho, 0 < rho < 1 -> 0 < 2 * rho * (1 - rho).\n"
        "Theorem kappa_pos : forall rho, 0 < rho < 1 -> 0 < kappa rho.\n"
        "Proof. intros rho H. apply sneaky, H. Qed."
    )
    head = "Theorem kappa_pos : forall rho, 0 < rho < 1 -> 0 < kappa rho.\n"
    planted = src.replace(head + KAPPA_PROOF, sneaky)
    assert planted != src
    report = verify.check(_small_copy(tmp_path, planted))
    assert not report.ok
    by_name = {t.short_name: t for t in report.theorems}
    assert any("sneaky" in u for u in by_name["kappa_pos"].undeclared)
    assert not any("admitted" in e for e in report.errors)


def test_wrong_proof_fails_to_compile(tmp_path: Path) -> None:
    _require_coq()
    # No axiom, no Admitted: just a false statement whose "proof" does not check.
    src = (FORMAL / "Approximate.v").read_text()
    planted = src + "\nTheorem wrong_bound : forall rho, 0 < rho < 1 -> kappa rho > 1.\n"
    planted += "Proof. intros rho [H0 H1]. unfold kappa. nra. Qed.\n"
    formal = _small_copy(tmp_path, planted)
    report = verify.check(formal)
    assert not report.ok
    assert any("coqc failed on Approximate.v" in e for e in report.errors)
    # The command line reports the failure with exit status 1 and leaves the tree clean.
    assert verify.main(["--formal-dir", str(formal), "--quiet"]) == 1
    assert not list(formal.glob("*.vo"))


def test_missing_theorem_is_reported(tmp_path: Path) -> None:
    _require_coq()
    formal = _small_copy(tmp_path)
    with (formal / "theorems.txt").open("a") as fh:
        fh.write("approximate | LejepaId.Approximate.no_such_theorem | missing\n")
    report = verify.check(formal)
    assert not report.ok
    by_name = {t.short_name: t for t in report.theorems}
    assert by_name["no_such_theorem"].error.startswith("not found")
    assert by_name["kappa_pos"].status == "verified"


def test_missing_coq_exits_2(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(verify.shutil, "which", lambda _name: None)
    assert verify.main(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert "apt-get install -y coq libcoq-coquelicot" in err
    assert len(err.strip().splitlines()) == 1


def test_parsers() -> None:
    # Nested comments and strings are blanked; offsets (line numbers) survive.
    text = 'A (* x (* Admitted *) y *) "Admitted" B\nAxiom foo : True.'
    bare = verify.strip_comments(text)
    assert "Admitted" not in bare and bare.count("\n") == 1 and len(bare) == len(text)
    out = (
        "Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\n"
        "Forward.mehler_alignment\n  : forall n : nat,\n    n = n\n"
    )
    assert verify.parse_assumptions(out) == [
        "ClassicalDedekindReals.sig_not_dec",
        "Forward.mehler_alignment",
    ]
    assert verify.parse_assumptions("Closed under the global context\n") == []
    assert verify._matches("Forward.x", "LejepaId.Forward.x")
    assert not verify._matches("ard.x", "LejepaId.Forward.x")
