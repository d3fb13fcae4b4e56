"""Tests of the Coq development in ``formal/`` and of its checker ``lejepa_id.proofs.checker``.

The planted-cheat tests work on a copy of ``formal/`` reduced to ``Approximate.v``
(fast to compile), after a control run shows the unmodified copy passes; each cheat
of the project's review is planted in its own copy and must make the audit fail for
the stated reason. Without ``coqc`` these tests skip, except under CI (environment
variable ``CI`` set), where its absence is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lejepa_id.proofs import checker as verify
from lejepa_id.proofs import findings, policy, sources, statements
from lejepa_id.proofs import report as proof_report

FORMAL = Path(__file__).resolve().parents[1] / "formal"
SMALL = (
    "LejepaId.Approximate.kappa_pos",
    "LejepaId.Approximate.approx_identifiability",
    "LejepaId.Approximate.thm3_bound_linear",
)
# The last theorem of Approximate.v, used by no other proof: restating it still compiles.
LINEAR_STMT = (
    "Theorem thm3_bound_linear :\n"
    "  forall rho delta eps,\n"
    "    0 < rho < 1 -> 0 <= delta -> 0 <= eps ->\n"
    "    eps + D_of rho delta <= 1 ->\n"
    "    thm3_bound rho delta eps <= 2 * D_of rho delta + eps.\n"
)
KAPPA_HEAD = "Theorem kappa_pos : forall rho, 0 < rho < 1 -> 0 < kappa rho.\n"
KAPPA_PROOF = "Proof. intros rho [H0 H1]. unfold kappa. nra. Qed."


def _in_ci() -> bool:
    """``CI`` set to anything but an explicit no (``CI=true`` on every CI service)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _require_coq() -> None:
    """Skip without ``coqc``, except in CI, where the Coq tests must fail instead."""
    if shutil.which("coqc") is None:
        if _in_ci():
            pytest.fail(f"coqc is not installed in CI; run: {verify.INSTALL_HINT}")
        pytest.skip(f"coqc not installed ({verify.INSTALL_HINT})")


@pytest.fixture(scope="module")
def real_report() -> findings.Report:
    """One from-scratch compile and audit of the real development, shared by the tests."""
    _require_coq()
    return verify.check(FORMAL)


class Pinned(dict):
    """Pins of the small copy (name -> pin), with the printed statements behind them."""

    statements: str = ""


def _write_small(dst: Path, pins: dict[str, str], source: str | None = None) -> Path:
    shutil.copytree(FORMAL, dst, ignore=verify._ignore_build_outputs)
    (dst / "_CoqProject").write_text(
        "-R . LejepaId\n-arg -w -arg -ambiguous-paths\nApproximate.v\n"
    )
    lines = [f"approximate | {n} | {pins.get(n, '0' * 64)} | small" for n in SMALL]
    (dst / "theorems.txt").write_text("\n".join(lines) + "\n")
    (dst / statements.FILENAME).write_text(getattr(pins, "statements", ""))
    if source is not None:
        (dst / "Approximate.v").write_text(source)
    return dst


def _pinned(report: findings.Report) -> Pinned:
    pins = Pinned({t.name: t.actual_pin for t in report.theorems})
    pins.statements = statements.render(report)
    return pins


@pytest.fixture(scope="module")
def small_pins(tmp_path_factory: pytest.TempPathFactory) -> Pinned:
    """Pins of the unmodified small copy (a control run: it must pass once pinned).

    The probe audits one step at a time (``coq._together`` off: the path taken when a
    combined run fails), the control with the steps after pass A combined: both saw the
    same sources, so everything but the pins' verdicts must agree."""
    _require_coq()
    from lejepa_id.proofs import coq

    mp = pytest.MonkeyPatch()
    mp.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    together = coq._together
    try:
        mp.setattr(coq, "_together", lambda *args: None)
        probe = verify.check(_write_small(tmp_path_factory.mktemp("probe") / "formal", {}))
        mp.setattr(coq, "_together", together)
        pins = _pinned(probe)
        control = verify.check(_write_small(tmp_path_factory.mktemp("ctl") / "formal", pins))
    finally:
        mp.undo()
    assert control.ok, proof_report.summary(control)
    assert all(t.status == "verified" for t in control.theorems)
    assert _pinned(control) == pins and _pinned(control).statements == pins.statements
    for field in ("assumptions", "definitions", "definition_refs", "definition_edges"):
        assert getattr(control, field) == getattr(probe, field), field
    for seen, stepwise in zip(control.theorems, probe.theorems, strict=True):
        for field in ("printed_type", "uses", "refs", "laws", "assumptions", "standard"):
            assert getattr(seen, field) == getattr(stepwise, field), (seen.name, field)
    return pins


@pytest.fixture()
def plant(small_pins, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``plant(new_source)`` audits a pinned small copy whose Approximate.v is replaced."""
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    src = (FORMAL / "Approximate.v").read_text()
    runs: list[int] = []

    def run(old: str | None = None, new: str = "", append: str = "") -> findings.Report:
        text = src
        if old is not None:
            assert old in text
            text = text.replace(old, new)
        runs.append(len(runs))
        formal = _write_small(tmp_path / f"run{runs[-1]}" / "formal", small_pins, text + append)
        return verify.check(formal)

    return run


def _by_name(report: findings.Report) -> dict[str, findings.TheoremResult]:
    return {t.short_name: t for t in report.theorems}


# --------------------------------------------------------------------------- the real tree


def test_real_development_compiles_and_passes(real_report: findings.Report) -> None:
    assert real_report.errors == []
    assert real_report.ok, proof_report.summary(real_report)
    listed = sources.parse_theorem_list(FORMAL)
    assert [t.name for t in real_report.theorems] == [t.name for t in listed]
    assert {t.group for t in real_report.theorems} == set(policy.GROUP_TITLES)
    # Every assumption any theorem rests on is on the allow-list with its pinned type.
    for a in real_report.assumptions.values():
        assert a.qualified, a.printed
        assert not a.refuted and not (a.trivial and a.sort == "Prop"), a.printed


def test_no_prop_parameter_and_axiom_budget(real_report: findings.Report) -> None:
    kinds = {q: e.kind for q, e in policy.PROJECT_ASSUMPTIONS.items()}
    for a in real_report.assumptions.values():
        if a.qualified in kinds:
            assert (a.sort == "Prop") == (kinds[a.qualified] == "axiom"), a.printed
    assert all(d.doc for d in real_report.axioms)
    # The polar factor (PolarFactor.v) and the spectral gap C1 (Spectrum.v) are
    # proved: no project axiom is left.
    assert real_report.axioms == []
    assert policy.PROJECT_ASSUMPTIONS == {}


def test_concrete_results_need_no_project_assumption(real_report: findings.Report) -> None:
    status = {t.name: t.status for t in real_report.theorems}
    verified = [
        "Forward.mehler_summable",
        "Gaussian.gaussian_second_moment",
        "Converse.gaussian_affine_in_L2",
        "Converse.gaussian_affine_eigen_equation",
        "Converse.affine_score_gaussian",
        "Converse.hermite_spectrum",
        "Converse.gaussian_first_eigenfunction",
        "Converse.converse_biconditional",
        "HermiteModel.model_parseval",
        "HermiteModel.model_mehler",
        "HermiteModel.heval_linear",
        "HermiteModel.forward_identifiability_model",
        "HermiteModel.identity_encoder_whitened",
        "HermiteModel.hermite_laws",
        "Matrix.rows_orthonormal_orthogonal",
        "HermitePolar.hermite_polar_laws",
        "HermitePolar.approx_identifiability_model",
        "Compact.compact_max",
        "Polar.max_polar",
        "PolarFactor.polar_factor",
        "Dirichlet.jensen_exp",
        "Dirichlet.dirichlet_identifiability",
        "Dirichlet.trace_det_am_gm2",
        "Dirichlet.dirichlet_jacobian_equality2",
        "Dirichlet.dirichlet_identifiability2",
        "Dirichlet.dirichlet_identifiability2_satisfiable",
        "Dirichlet.det_gram_upper",
        "Dirichlet.cholesky_exists",
        "Dirichlet.gram_det_pos_iff",
        "Dirichlet.trace_det_equality",
        "Dirichlet.dirichlet_jacobian_equality",
        "Dirichlet.dirichlet_identifiability_n",
        "Dirichlet.dirichlet_identifiability_n_satisfiable",
        "GaussianExpectation.gexp_is_expectation",
        "GaussianExpectation.gexp_faithful",
        "GaussianExpectation.dirichlet_identifiability_gauss1",
        "GaussianExpectation.dirichlet_identifiability_gauss1_satisfiable",
        "GaussianExpectation.gexpn_is_expectation",
        "GaussianExpectation.gexpn_faithful",
        "GaussianExpectation.dirichlet_identifiability_gauss",
        "GaussianExpectation.dirichlet_identifiability_gauss_satisfiable",
        "GaussianExpectation.gauss_log_volume_zero",
        "GaussianExpectation.dirichlet_identifiability_gauss_density",
        "GaussianExpectation.dirichlet_identifiability_gauss_density_satisfiable",
        "HermiteN.gexpn_sumprod",
        "HermiteN.hermite_orthonormal_n",
        "HermiteN.model_cov_n",
        "HermiteN.model_sqerr_n",
        "HermiteN.forward_identifiability_model_n",
        "HermiteN.approx_identifiability_model_n",
        "Mehler.mehler_n",
        "Mehler.ou_stationary_1d",
        "Mehler.model_alignment_ou",
        "Mehler.forward_identifiability_model_ou",
        "IntegrationOrder.fprod_perm",
        "IntegrationOrder.gexpn_sumprod_order",
        "IntegrationOrder.model_moments_order",
        "IntegrationOrder.gwhitened_order",
        "IntegrationOrder.model_sqerr_order",
        "IntegrationOrder.model_alignment_order",
        "Fubini.fubini_rect",
        "GaussFubini.fubini_dom",
        "GaussFubini.gexp_fubini",
        "GaussFubiniN.gexpn_fclass_order",
        "GaussFubiniN.sumprod_fclass",
        "GaussFubiniN.fclass_gclass",
        "GaussFubiniN.fclass_order_gclass",
        "Mehler.approx_identifiability_model_ou",
        "Planning.planning_orthogonal_values",
        "Planning.stochastic_cost_equal",
        "Planning.stochastic_values_coincide",
    ]
    for name in verified:
        assert status[f"LejepaId.{name}"] == "verified", name
    # The spectral gap, formerly the converse's only axiom, is a theorem.
    by_name = {t.short_name: t for t in real_report.theorems}
    assert by_name["gaussian_first_eigenfunction"].axioms == []
    assert by_name["gaussian_first_eigenfunction"].parameters == []
    assert all(not t.axioms and not t.parameters for t in real_report.theorems)


def test_general_theorems_are_law_relative(real_report: findings.Report) -> None:
    # The general forms take the law records as premises: reported as such, never
    # as verified, while the model proving the laws is verified outright.
    by_name = {t.short_name: t for t in real_report.theorems}
    assert by_name["forward_identifiability"].status == "law-relative"
    assert by_name["forward_identifiability"].laws == ["L2Laws"]
    assert by_name["approx_identifiability_assembled"].laws == ["L2Laws", "PolarLaws"]
    # Theorem 3: the polar factor is proved, so no project axiom; for the model
    # no premise either.
    assert by_name["approx_identifiability_assembled"].axioms == []
    assert by_name["approx_identifiability_model"].laws == []
    assert by_name["approx_identifiability_model"].axioms == []
    assert by_name["hermite_laws"].laws == []
    assert "premise `L2Laws`" in proof_report.render_markdown(real_report)


def test_law_premises_parser() -> None:
    from lejepa_id.proofs.coq import law_premises

    head = "LejepaId.Forward.L2Laws LejepaId.HermiteModel.hermite_notions"
    assert law_premises(head) == []
    premise = "forall (G : LejepaId.Forward.L2Notions) (_ : LejepaId.Forward.L2Laws G), True"
    assert law_premises(premise) == ["L2Laws"]
    assert law_premises("forall G : Forward.L2Notions, @Forward.PolarLaws G P -> True") == [
        "PolarLaws"
    ]
    assert law_premises("forall x : LejepaId.Forward.L2LawsX, True") == []


def test_law_premises_through_definitions() -> None:
    from lejepa_id.proofs.coq import Definitions, law_premises_deep
    from lejepa_id.proofs.deps import Graph

    defs = Definitions.__new__(Definitions)
    defs.graph = Graph(
        edges={
            "LejepaId.Forward.L2Laws": ["LejepaId.Forward.L2Notions"],
            "LejepaId.Forward.L2Notions": ["Coq.Reals.Rdefinitions.R"],
            "LejepaId.Extra.laws_hold": ["LejepaId.Forward.L2Laws"],
            "LejepaId.Extra.model": ["LejepaId.Forward.Build_L2Notions"],
        }
    )
    # forall G, Extra.laws_hold G -> True: the wrapped record is a premise.
    assert law_premises_deep(["LejepaId.Extra.laws_hold"], defs) == ["L2Laws"]
    assert law_premises_deep(["LejepaId.Forward.L2Laws"], defs) == ["L2Laws"]
    # A model proving the laws (the record, or a wrapper of it, at the head: Coq's
    # walk reports only the head's arguments) is not law-relative, and neither is a
    # statement about a concrete interpretation.
    assert law_premises_deep(["LejepaId.Extra.model"], defs) == []
    assert law_premises_deep(["Coq.Init.Logic.eq", "LejepaId.Extra.model"], defs) == []


def test_required_list_covers_the_theorem_list() -> None:
    # The paper's theorem list, item by item (forward, converse, approximate,
    # Dirichlet, planning): each statement must stay required.
    spec = {
        "Forward.corr_bound", "Forward.corr_equality_iff", "Forward.alignment_lower_bound",
        "Forward.alignment_equality_iff", "Forward.forward_identifiability",
        "Converse.converse_affine_score", "Converse.converse_biconditional",
        "Approximate.kappa_pos", "Approximate.W_nl_le_D", "Approximate.approx_identifiability",
        "Approximate.thm3_bound_monotone", "Approximate.approx_exact",
        "Approximate.thm3_bound_linear", "Dirichlet.am_gm", "Dirichlet.jensen_exp",
        "Dirichlet.isometry_linear", "Dirichlet.norm_preserving_linear_isometry",
        "Dirichlet.orthogonal_jacobian_lipschitz", "Dirichlet.bilipschitz_isometry",
        "Dirichlet.dirichlet_identifiability", "Dirichlet.dirichlet_identifiability_n",
        "Planning.planning_cost_equal",
        "Planning.planning_minimizers_coincide", "Planning.planning_values_coincide",
    }  # fmt: skip
    assert {f"LejepaId.{s}" for s in spec} <= set(policy.REQUIRED_THEOREMS)
    listed = sources.parse_theorem_list(FORMAL)
    assert sources.list_problems(listed) == []
    # Dropping any line from theorems.txt is reported, without running Coq.
    for k in range(len(listed)):
        problems = sources.list_problems(listed[:k] + listed[k + 1 :])
        assert problems == [f"theorems.txt lacks required theorem {listed[k].name}"]


def test_markdown_table_lists_everything(real_report: findings.Report) -> None:
    table = proof_report.render_markdown(real_report)
    assert "Overall: PASS" in table
    for t in real_report.theorems:
        assert f"`{t.short_name}`" in table
    for d in real_report.declared:
        assert f"`{d.name}`" in table


def test_committed_table_is_current(real_report: findings.Report) -> None:
    committed = (FORMAL / "VERIFICATION.md").read_text()
    fresh = proof_report.render_markdown(real_report)
    assert committed == fresh, "regenerate: lejepa-id verify --table formal/VERIFICATION.md"


def test_committed_statements_are_current(real_report: findings.Report) -> None:
    # The printed text behind every pin is committed, so a re-pin shows its diff.
    committed = (FORMAL / statements.FILENAME).read_text()
    assert committed == statements.render(real_report), (
        "regenerate: lejepa-id verify --statements formal/statements.txt"
    )
    blocks, defs = statements.parse(committed)
    for t in real_report.theorems:
        assert statements.block_pin(blocks[("theorem", t.name)], defs) == t.expected_pin
    # Every project constant is followed, under its full name.
    assert "LejepaId.Converse.in_L2" in _by_name(real_report)["hermite_spectrum"].uses
    assert all(d.startswith("LejepaId.") for d in real_report.definitions)


# --------------------------------------------------------------------------- planted cheats


def test_cheat_false_axiom_with_plausible_comment(plant) -> None:
    cheat = (
        "(** Axiom K1, a standard fact of Gaussian analysis (Mehler, 1866). *)\n"
        "Axiom gaussian_fact : False.\n" + KAPPA_HEAD + "Proof. destruct gaussian_fact. Qed."
    )
    report = plant(KAPPA_HEAD + KAPPA_PROOF, cheat)
    assert not report.ok
    assert "Approximate.gaussian_fact" in _by_name(report)["kappa_pos"].undeclared
    assert any("gaussian_fact is refutable" in e for e in report.errors)
    assert any("gaussian_fact is not on the allow-list" in e for e in report.errors)


def test_cheat_false_axiom_is_refuted_even_if_allow_listed(plant, monkeypatch) -> None:
    # A careless reviewer puts the axiom on the allow-list: Coq still refutes it.
    entry = policy.Allowed("axiom", findings.pin("False"), "")
    monkeypatch.setattr(policy, "PROJECT_ASSUMPTIONS", {"LejepaId.Approximate.ok_fact": entry})
    report = plant(append="\n(** A fact. *)\nAxiom ok_fact : False.\n")
    assert not report.ok
    assert any("ok_fact is refutable" in e for e in report.errors)


@pytest.mark.parametrize("typ", ["False", "forall P : Prop, P"])
def test_cheat_prop_parameter(plant, typ: str) -> None:
    report = plant(append=f"\nParameter junk : {typ}.\n")
    assert not report.ok
    assert any("junk has sort Prop" in e for e in report.errors)
    assert any("junk is refutable" in e for e in report.errors)


@pytest.mark.parametrize(
    "typ", ["{x : R | x <> x}", "forall n : nat, {m : nat | (m < n)%nat}", "{0 = 1} + {1 = 0}"]
)
def test_cheat_subset_type_parameter(plant, monkeypatch, typ: str) -> None:
    # Sort Type, but it carries a proof: even allow-listed as a parameter it is refused.
    entry = policy.Allowed("parameter", "0" * 64, "")
    monkeypatch.setattr(policy, "PROJECT_ASSUMPTIONS", {"LejepaId.Approximate.sub": entry})
    report = plant(append=f"\nParameter sub : {typ}.\n")
    assert not report.ok
    assert any("Parameter LejepaId.Approximate.sub can carry a proof" in e for e in report.errors)


def test_cheat_trivial_axiom(plant) -> None:
    report = plant(append="\n(** Looks deep. *)\nAxiom deep : True /\\ (0 = 0)%nat.\n")
    assert any("deep is provable by easy/tauto" in e for e in report.errors)


def _linear_theorem() -> str:
    src = (FORMAL / "Approximate.v").read_text()
    start = src.index(LINEAR_STMT)
    return src[start : src.index("Qed.", start) + 4]


def test_cheat_section_hypothesis_discharged(plant) -> None:
    cheat = (
        "Section S.\nHypothesis Hb : forall rho delta eps,\n"
        "  thm3_bound rho delta eps <= 2 * D_of rho delta + eps.\n"
        + LINEAR_STMT
        + "Proof. intros. apply Hb. Qed.\nEnd S."
    )
    report = plant(_linear_theorem(), cheat)
    assert not report.ok
    assert "statement differs from its pin" in _by_name(report)["thm3_bound_linear"].error
    assert _by_name(report)["thm3_bound_linear"].undeclared == []  # invisible to Print Assumptions


def test_cheat_theorem_restated_as_true(plant) -> None:
    report = plant(_linear_theorem(), "Theorem thm3_bound_linear : True.\nProof. exact I. Qed.")
    assert not report.ok
    assert "statement differs from its pin" in _by_name(report)["thm3_bound_linear"].error


def test_cheat_definition_weakened(plant) -> None:
    # The statement text is unchanged, but what it means is not: kappa changed.
    report = plant(
        "Definition kappa (rho : R) : R := 2 * rho * (1 - rho).",
        "Definition kappa (rho : R) : R := 2 * rho * rho.",
    )
    assert not report.ok
    assert "statement differs from its pin" in _by_name(report)["kappa_pos"].error
    # The reviewer is told which definition changed (statements.txt has the old text).
    assert "changed since statements.txt: LejepaId.Approximate.kappa" in (
        _by_name(report)["kappa_pos"].error
    )


def test_printing_options_set_by_a_project_file_are_reset(plant) -> None:
    # Global printing options survive Require: Printing Depth 1 would print every
    # statement and definition as "...", so that no pin could change.
    depth = "Global Set Printing Depth 1.\nGlobal Set Printing Width 10.\n"
    head = "Definition kappa (rho : R) : R := 2 * rho * (1 - rho)."
    assert plant(head, depth + head).ok  # pins unchanged: the audit resets them
    report = plant(head, depth + "Definition kappa (rho : R) : R := 2 * rho * rho.")
    assert not report.ok
    assert "statement differs from its pin" in _by_name(report)["kappa_pos"].error


def test_statements_file_must_back_every_pin(small_pins, tmp_path, monkeypatch) -> None:
    # Right pins, but the committed printed text does not hash to them.
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    formal = _write_small(tmp_path / "formal", small_pins)
    path = formal / statements.FILENAME
    path.write_text(path.read_text().replace("(Rdefinitions.IZR", "(Rdefinitions.IZR ", 1))
    assert verify.check(formal).ok  # whitespace does not count
    text = small_pins.statements.replace("Rdefinitions.Rminus", "Rdefinitions.Rplus")
    assert text != small_pins.statements
    path.write_text(text)
    report = verify.check(formal)
    assert not report.ok
    assert "does not hash to its pin" in _by_name(report)["kappa_pos"].error
    path.unlink()
    report = verify.check(formal)
    assert not report.ok
    assert any(statements.FILENAME in e for e in report.errors)


def test_allow_listed_axiom_pins_the_definitions_it_uses(plant, small_pins, monkeypatch) -> None:
    # The audit's case: an allow-listed axiom made false by editing a definition it
    # mentions. Its allow-list pin covers that definition, so the edit is caught.
    axiom = "\n(** A fact about kappa. *)\nAxiom kappa_half : kappa (1 / 2) = 1 / 2.\n"
    name = "LejepaId.Approximate.kappa_half"
    monkeypatch.setattr(
        policy, "PROJECT_ASSUMPTIONS", {name: policy.Allowed("axiom", "0" * 64, "")}
    )
    probe = plant(append=axiom)
    entry = policy.Allowed("axiom", probe.assumptions[name].pin, "")
    assert probe.assumptions[name].uses == ["LejepaId.Approximate.kappa"]
    monkeypatch.setattr(policy, "PROJECT_ASSUMPTIONS", {name: entry})
    small_pins.statements, saved = _pinned(probe).statements, small_pins.statements
    try:
        assert plant(append=axiom).ok  # control: allow-listed with its meaning pinned
        report = plant(
            "Definition kappa (rho : R) : R := 2 * rho * (1 - rho).",
            "Definition kappa (rho : R) : R := 2 * rho * (1 - rho) + 1 / 4.",
            append=axiom,
        )
    finally:
        small_pins.statements = saved
    assert not report.ok
    assert any("kappa_half: type pin" in e and "differs" in e for e in report.errors)
    assert any(
        "changed since statements.txt: LejepaId.Approximate.kappa" in e for e in report.errors
    )


def test_cheat_theorem_dropped_from_list(small_pins, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    formal = _write_small(tmp_path / "formal", small_pins)
    lines = (formal / "theorems.txt").read_text().splitlines()
    (formal / "theorems.txt").write_text("\n".join(lines[:-1]) + "\n")
    report = verify.check(formal)
    assert not report.ok
    assert f"theorems.txt lacks required theorem {SMALL[-1]}" in report.errors


# Coq reads one comment, a lemma, then a comment holding a string; a scanner that
# ignores strings inside comments sees the lemma as part of a string.
HIDDEN = '(* "*)" *) Lemma hidden : (1 = 2)%nat. Proof. Admitted. (* " *)\n(* " *)\n'


def test_cheat_admitted_hidden_by_comment_trick(plant) -> None:
    report = plant(append="\n" + HIDDEN)
    assert not report.ok
    assert any("comment-terminator-in-string" in e for e in report.errors)


def test_cheat_hidden_admitted_caught_by_assumptions_too(plant, monkeypatch) -> None:
    # Even with the warning left a warning, Print Assumptions names the lemma.
    monkeypatch.setattr(policy, "CHECKER_COQC_FLAGS", ())
    src = (FORMAL / "Approximate.v").read_text()
    head, _, tail = src.partition(KAPPA_HEAD)
    uses = (
        KAPPA_HEAD
        + "Proof. intros. exfalso. pose proof hidden as Hcheat. discriminate Hcheat. Qed."
    )
    report = plant(src, head + HIDDEN + uses + tail.replace(KAPPA_PROOF, "", 1))
    assert not report.ok
    assert any("hidden" in u for u in _by_name(report)["kappa_pos"].undeclared)
    # The Coq-faithful lexer of the source scan is not fooled either.
    assert any("admitted proof: Approximate.v" in e for e in report.errors)


def test_cheat_plain_admitted(plant) -> None:
    report = plant(KAPPA_PROOF, "Proof. Admitted.")
    assert not report.ok
    assert any("admitted proof: Approximate.v" in e for e in report.errors)
    assert any("kappa_pos" in u for u in _by_name(report)["approx_identifiability"].undeclared)


def test_cheat_top_level_hypothesis(plant) -> None:
    sneaky = "Hypothesis sneaky : forall rho, 0 < rho < 1 -> 0 < 2 * rho * (1 - rho).\n"
    report = plant(KAPPA_HEAD + KAPPA_PROOF, sneaky + KAPPA_HEAD + "Proof. apply sneaky. Qed.")
    assert not report.ok
    assert any("sneaky" in u for u in _by_name(report)["kappa_pos"].undeclared)


def test_cheat_project_options(small_pins, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    formal = _write_small(tmp_path / "formal", small_pins)
    (formal / "_CoqProject").write_text("-R . LejepaId\n-arg -type-in-type\nApproximate.v\n")
    report = verify.check(formal)
    assert not report.ok
    assert any("_CoqProject: not allowed: -type-in-type" in e for e in report.errors)


def test_wrong_proof_fails_to_compile(plant) -> None:
    report = plant(
        append="\nTheorem wrong : forall rho, 0 < rho < 1 -> kappa rho > 1.\n"
        "Proof. intros rho [H0 H1]. unfold kappa. nra. Qed.\n"
    )
    assert not report.ok
    assert any("coqc failed on Approximate.v" in e for e in report.errors)
    assert verify.main(["--formal-dir", str(Path(report.formal_dir)), "--quiet"]) == 1
    assert not list(Path(report.formal_dir).glob("*.vo"))


def test_verify_says_each_stage_as_it_starts(small_pins, tmp_path, monkeypatch, capsys) -> None:
    # A whole check takes minutes: each stage is a line on stderr when it starts (the
    # callback is called before the stage's work, so a line is never late), the summary
    # on stdout at the end; --quiet prints no progress.
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    formal = _write_small(tmp_path / "formal", small_pins)
    heard: list[str] = []
    real_compile = verify.coq.compile_all

    def compile_all(*args, **kwargs):
        heard.append("compile starts")
        return real_compile(*args, **kwargs)

    monkeypatch.setattr(verify.coq, "compile_all", compile_all)
    report = verify.check(formal, progress=heard.append)
    assert report.ok
    lines = heard
    assert lines[0].startswith("copying ") and lines[1] == "compile starts"
    assert lines[2] == "coqc 1/1 Approximate.v"
    assert lines[3].startswith("coqchk: re-checking the 1 compiled files")
    assert lines[4].startswith("auditing 3 theorems")
    assert verify.main(["--formal-dir", str(formal)]) == 0
    out, err = capsys.readouterr()
    assert "verify: coqc 1/1 Approximate.v" in err and "verify: auditing 3 theorems" in err
    assert "verify:" not in out
    assert verify.main(["--formal-dir", str(formal), "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "verify:" not in err and out.strip() == "PASS"


# --------------------------------------------------------------------------- pure parts


def test_missing_coq_exits_2(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(verify.shutil, "which", lambda _name: None)
    assert verify.main(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert "apt-get install -y coq libcoq-coquelicot" in err
    assert len(err.strip().splitlines()) == 1


def test_missing_coq_fails_in_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    for value in ("true", "1", "yes"):
        monkeypatch.setenv("CI", value)
        with pytest.raises(pytest.fail.Exception, match="coqc is not installed in CI"):
            _require_coq()
    for value in ("", "false", "0"):
        monkeypatch.setenv("CI", value)
        with pytest.raises(pytest.skip.Exception):
            _require_coq()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        _require_coq()


_SPACINGS = (" ", "  ", "\t", "\n", " \n\t ", " (* a comment *) ", "\r\n")


@pytest.mark.parametrize("command", policy.BANNED_COMMANDS)
@pytest.mark.parametrize("spacing", _SPACINGS)
def test_banned_command_found_however_spaced(tmp_path: Path, command: str, spacing: str) -> None:
    planted = spacing.join(command.split())
    (tmp_path / "Cheat.v").write_text(
        f"(* {command} in a comment is fine *)\nDefinition ok := 0.\n{planted} foo.\n"
    )
    errors = sources.scan_sources(tmp_path, ["Cheat.v"])
    assert errors == [f"banned command: Cheat.v:3: {command}"], (command, spacing)


def test_banned_commands_absent_from_the_real_tree() -> None:
    _, files, bad = sources.parse_coqproject(FORMAL)
    assert bad == []
    assert not [e for e in sources.scan_sources(FORMAL, files) if e.startswith("banned")]


def test_parsers() -> None:
    text = 'A (* x (* Admitted *) y *) "Admitted" B\nAxiom foo : True.'
    bare = sources.strip_comments(text)
    assert "Admitted" not in bare and bare.count("\n") == 1 and len(bare) == len(text)
    # Like Coq, a string inside a comment hides a comment terminator.
    assert "Admitted" in sources.strip_comments(HIDDEN)
    out = (
        "Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\n"
        "Forward.mehler_alignment\n  : forall n : nat,\n    n = n\n"
    )
    assert sources.parse_assumptions(out) == [
        "ClassicalDedekindReals.sig_not_dec",
        "Forward.mehler_alignment",
    ]
    assert sources.parse_assumptions("Closed under the global context\n") == []
    _, odd = sources.parse_entries("Axioms:\nType hierarchy is collapsed (logic is inconsistent)\n")
    assert odd
    assert sources._matches("Forward.x", "LejepaId.Forward.x")
    assert not sources._matches("ard.x", "LejepaId.Forward.x")
    assert findings.pin("a  b\n c") == findings.pin("a b c") != findings.pin("a b")


# --------------------------------------------------------------------------- the review's misses
# Each of these slipped past the earlier checker (names read by a regular expression,
# proof carriers found by text, kinds from text, 64-bit pins, .vo never re-checked).

KAPPA_DEF = "Definition kappa (rho : R) : R := 2 * rho * (1 - rho)."


def _pin_then_change(tmp_path: Path, monkeypatch, before: str, after: str):
    """Pin a small copy whose Approximate.v is ``before`` (its control run must pass),
    then audit the same pins and statements with ``after``."""
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    probe = verify.check(_write_small(tmp_path / "probe" / "formal", {}, before))
    pins = _pinned(probe)
    control = verify.check(_write_small(tmp_path / "ctl" / "formal", pins, before))
    assert control.ok, proof_report.summary(control)
    return control, verify.check(_write_small(tmp_path / "after" / "formal", pins, after))


@pytest.mark.parametrize(
    ("helper", "name", "qualified"),
    [
        # A helper whose name starts with a non-ASCII letter.
        ("Definition κk (rho : R) : R := {body}.", "κk", "LejepaId.Approximate.κk"),
        # The same through a module with a non-ASCII name.
        (
            "Module Ωm.\nDefinition k (rho : R) : R := {body}.\nEnd Ωm.",
            "Ωm.k",
            "LejepaId.Approximate.Ωm.k",
        ),
    ],
)
def test_cheat_non_ascii_helper_changed(tmp_path, monkeypatch, helper, name, qualified) -> None:
    _require_coq()
    src = (FORMAL / "Approximate.v").read_text()

    def with_body(body: str) -> str:
        text = src.replace(
            KAPPA_DEF, helper.format(body=body) + f"\nDefinition kappa (rho : R) : R := {name} rho."
        )
        return text.replace(
            KAPPA_PROOF, f"Proof. intros rho [H0 H1]. unfold kappa, {name}. nra. Qed."
        )

    control, report = _pin_then_change(
        tmp_path,
        monkeypatch,
        with_body("2 * rho * (1 - rho)"),
        with_body("2 * rho * (1 - rho) * (1 + rho)"),
    )
    assert qualified in _by_name(control)["kappa_pos"].uses  # followed, under its full name
    assert not report.ok
    error = _by_name(report)["kappa_pos"].error
    assert "statement differs from its pin" in error
    assert f"changed since statements.txt: {qualified}" in error


def test_cheat_proof_carrying_record_parameter(plant, monkeypatch) -> None:
    # Sort Type, no sig or Prop in its printed text, yet every gmass is a proof of
    # 0 = 1: Coq finds the Prop-sorted field behind the record.
    monkeypatch.setattr(
        policy,
        "PROJECT_ASSUMPTIONS",
        {
            f"LejepaId.Approximate.{n}": policy.Allowed("parameter", "0" * 64, "")
            for n in ("gmass", "gpt")
        },
    )
    report = plant(
        append="\nRecord Mass : Type := { mval : R; mval01 : mval = 0 /\\ mval = 1 }.\n"
        "Parameter gmass : Mass.\n"
        "Record Pt : Type := { px : R; py : nat }.\nParameter gpt : nat -> Pt.\n"
    )
    assert not report.ok
    carried = [e for e in report.errors if "can carry a proof" in e]
    assert any("gmass" in e and "LejepaId.Approximate.Mass" in e for e in carried), carried
    assert not any("gpt" in e for e in carried)  # a record of data only is a notion


def test_cheat_library_sig_alias_and_empty_type_parameters(plant, monkeypatch) -> None:
    # A subset type behind a library definition (the standard library's DReal is
    # {f : Q -> bool | isLowerCut f}) and an empty type (a value of nat -> Empty_set
    # proves anything) carry what a Prop would; R -> R does not.
    monkeypatch.setattr(
        policy,
        "PROJECT_ASSUMPTIONS",
        {
            f"LejepaId.Approximate.{n}": policy.Allowed("parameter", "0" * 64, "")
            for n in ("gdr", "gem", "gfn")
        },
    )
    report = plant(
        append="\nParameter gdr : Coq.Reals.ClassicalDedekindReals.DReal.\n"
        "Parameter gem : nat -> Empty_set.\nParameter gfn : R -> R.\n"
    )
    assert not report.ok
    carried = [e for e in report.errors if "can carry a proof" in e]
    assert any("gdr" in e and "Coq.Init.Specif.sig" in e for e in carried), carried
    assert any(
        "gem" in e and "Coq.Init.Datatypes.Empty_set, an inductive type with no" in e
        for e in carried
    ), carried
    assert not any("gfn" in e for e in carried)  # a function of reals is a notion


def test_cheat_kind_laundered_through_a_definition(small_pins, tmp_path, monkeypatch) -> None:
    # weight is kappa plus zero times an integral: naming an integral in a new
    # definition must not turn a coefficient-level statement into an integral one.
    from lejepa_id.proofs import kinds

    names = (*SMALL, "LejepaId.Approximate.weight_pos")
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", names)
    src = (FORMAL / "Approximate.v").read_text() + (
        "\nDefinition weight (rho : R) : R := kappa rho + 0 * RInt (fun _ => 0) 0 1.\n"
        "Theorem weight_pos : forall rho, 0 < rho < 1 -> 0 < weight rho.\n"
        "Proof. intros rho H. unfold weight. rewrite Rmult_0_l, Rplus_0_r. "
        "now apply kappa_pos. Qed.\n"
    )
    formal = _write_small(tmp_path / "formal", small_pins, src)
    lines = [f"approximate | {n} | {small_pins.get(n, '0' * 64)} | small" for n in names]
    (formal / "theorems.txt").write_text("\n".join(lines) + "\n")
    report = verify.check(formal)
    thm = _by_name(report)["weight_pos"]
    assert "LejepaId.Approximate.weight" in thm.uses
    assert "Coquelicot.RInt.RInt" in report.definition_refs["LejepaId.Approximate.weight"]
    assert any(
        "LejepaId.Approximate.weight names an integral but is not a reviewed" in e
        for e in report.errors
    )
    kind = kinds.derive(
        thm.printed_type, thm.uses, report.definitions, "", thm.refs, report.definition_refs
    )
    assert kind == "algebra"


def test_cheat_kind_laundered_through_a_reviewed_notion(small_pins, tmp_path, monkeypatch):
    # The same laundering one step removed: weight names no integral itself, only a
    # reviewed integral notion gI, times zero. Reaching gI would make weight_pos an
    # integral statement, so every definition between a statement and an integral
    # must be reviewed too.
    from lejepa_id.proofs import kinds
    from lejepa_id.proofs.findings import pin

    gi, weight = "LejepaId.Approximate.gI", "LejepaId.Approximate.weight"
    names = (*SMALL, "LejepaId.Approximate.weight_pos")
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", names)
    monkeypatch.setattr(policy, "INTEGRAL_NOTIONS", {gi: policy.Allowed("integral", "0" * 64, "")})
    src = (FORMAL / "Approximate.v").read_text() + (
        "\nDefinition gI (f : R -> R) : R := RInt f 0 1.\n"
        "Definition weight (rho : R) : R := kappa rho + 0 * gI (fun _ => 0).\n"
        "Theorem weight_pos : forall rho, 0 < rho < 1 -> 0 < weight rho.\n"
        "Proof. intros rho H. unfold weight. rewrite Rmult_0_l, Rplus_0_r. "
        "now apply kappa_pos. Qed.\n"
    )
    formal = _write_small(tmp_path / "formal", small_pins, src)
    lines = [f"approximate | {n} | {small_pins.get(n, '0' * 64)} | small" for n in names]
    (formal / "theorems.txt").write_text("\n".join(lines) + "\n")
    report = verify.check(formal)
    thm = _by_name(report)["weight_pos"]
    assert {gi, weight} <= set(thm.uses)
    assert report.definition_edges[weight] == [gi, "LejepaId.Approximate.kappa"]
    assert "Coquelicot.RInt.RInt" not in report.definition_refs[weight]
    reaches = f"{weight} reaches the integral notion {gi} but is not a reviewed"
    assert any(e.startswith(reaches) for e in report.errors), report.errors
    # With gI's pin right, weight is the one problem; reviewed too, none is left.
    args = (set(thm.uses), report.definitions, report.definition_refs, report.definition_edges)
    gi_ok = policy.Allowed("integral", pin(report.definitions[gi]), "")
    monkeypatch.setattr(policy, "INTEGRAL_NOTIONS", {gi: gi_ok})
    found = kinds.integral_problems(*args)
    assert len(found) == 1 and found[0].startswith(reaches)
    weight_ok = policy.Allowed("integral", pin(report.definitions[weight]), "")
    monkeypatch.setattr(policy, "INTEGRAL_NOTIONS", {gi: gi_ok, weight: weight_ok})
    assert kinds.integral_problems(*args) == []
    # What the rule prevents: through gI the statement derives as an integral one.
    kind = kinds.derive(
        thm.printed_type, thm.uses, report.definitions, "", thm.refs, report.definition_refs
    )
    assert kind == "integral"


def test_pins_are_full_length(tmp_path) -> None:
    assert len(findings.pin("x")) == 64
    (tmp_path / "theorems.txt").write_text("forward | LejepaId.Forward.x | 0123456789abcdef | s\n")
    with pytest.raises(ValueError, match="64-hex pin"):
        sources.parse_theorem_list(tmp_path)


def test_coqchk_rechecks_the_compiled_tree(tmp_path) -> None:
    # The kernel checker re-reads the .vo files: an axiom hidden in a compiled file
    # (here compiled in, as a replaced .vo would carry it) is listed and refused.
    from lejepa_id.proofs import coq

    _require_coq()
    coqchk = shutil.which("coqchk")
    assert coqchk, "coqchk is installed with coq"
    formal = _write_small(tmp_path / "formal", {})
    opts, files, _ = sources.parse_coqproject(formal)
    assert coq.compile_all("coqc", opts, files, formal, 600) == ""
    assert coq.kernel_recheck(coqchk, opts, files, formal, 600) == []
    (formal / "Approximate.v").write_text(
        (formal / "Approximate.v").read_text() + "\nAxiom cheat : False.\n"
    )
    assert coq.compile_all("coqc", opts, files, formal, 600) == ""
    errors = coq.kernel_recheck(coqchk, opts, files, formal, 600)
    assert errors == ["coqchk lists LejepaId.Approximate.cheat as assumed: not on the allow-list"]
    out = "* Axioms:\n    Coq.Logic.Classical_Prop.classic\n    LejepaId.X.y\n* Theory: Set\n"
    assert coq.kernel_axioms(out) == ["Coq.Logic.Classical_Prop.classic", "LejepaId.X.y"]


def test_coqpath_is_cleared(plant, tmp_path, monkeypatch) -> None:
    # A library reachable only through COQPATH is not loaded by the audit.
    _require_coq()
    lib = tmp_path / "coqpath" / "Evil"
    lib.mkdir(parents=True)
    (lib / "Evil.v").write_text("Definition evil := 0.\n")
    import subprocess

    subprocess.run(["coqc", "-Q", ".", "Evil", "Evil.v"], cwd=lib, check=True)
    monkeypatch.setenv("COQPATH", str(tmp_path / "coqpath"))
    from lejepa_id.proofs import coq

    assert "COQPATH" not in coq.clean_env()
    report = plant(KAPPA_HEAD, "From Evil Require Import Evil.\n" + KAPPA_HEAD)
    assert not report.ok
    assert any("coqc failed on Approximate.v" in e and "Evil" in e for e in report.errors)


def _locks():
    import importlib.util

    path = Path(__file__).resolve().parent / "proofs" / "locked_statements.py"
    spec = importlib.util.spec_from_file_location("locked_statements", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_repin_after_a_change_of_meaning_fails_the_locks(small_pins, tmp_path, monkeypatch):
    # The review's case: a definition edited and every pin regenerated. The audit
    # alone cannot tell (it passes); the literal locks of the key statements can.
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    src = (FORMAL / "Approximate.v").read_text()
    changed = src.replace(KAPPA_DEF, "Definition kappa (rho : R) : R := 2 * rho * (1 - rho) * 2.")
    probe = verify.check(_write_small(tmp_path / "probe" / "formal", small_pins, changed))
    assert not probe.ok  # the old pins catch it...
    repinned = _pinned(probe)  # ...so everything is re-pinned
    report = verify.check(_write_small(tmp_path / "repinned" / "formal", repinned, changed))
    assert report.ok, proof_report.summary(report)  # and the audit passes
    locks = _locks()
    assert locks.mismatches(small_pins.statements, only=set(SMALL)) == []  # control
    found = locks.mismatches(repinned.statements, only=set(SMALL))
    assert (
        "LejepaId.Approximate.approx_identifiability: definition LejepaId.Approximate.kappa "
        "differs from the locked text"
    ) in found


def test_cheat_opacity_flag_hiding_a_helper(plant) -> None:
    # `Global Opaque kappa` would make Coq's unfold (and so the walk) stop at kappa,
    # so that a helper under it could change unseen: opacity commands are refused.
    report = plant(KAPPA_PROOF, KAPPA_PROOF + "\nGlobal Opaque kappa.")
    assert not report.ok
    assert any("banned command: Approximate.v" in e and "Opaque" in e for e in report.errors)


def test_walk_follows_a_definition_through_a_qed_lemma(small_pins, tmp_path, monkeypatch) -> None:
    # A definition whose body mentions a Qed lemma: the walk takes the lemma's
    # statement (not its proof) and goes on.
    monkeypatch.setattr(policy, "REQUIRED_THEOREMS", SMALL)
    src = (FORMAL / "Approximate.v").read_text()
    src = src.replace(
        KAPPA_DEF,
        "Lemma two_pos : (0 < 2)%nat. Proof. lia. Qed.\n"
        "Definition kappa (rho : R) : R := let _ := two_pos in 2 * rho * (1 - rho).",
    )
    src = src.replace(KAPPA_PROOF, "Proof. intros rho [H0 H1]. unfold kappa. cbv zeta. nra. Qed.")
    report = verify.check(_write_small(tmp_path / "formal", small_pins, src))
    assert not any("dependency walk failed" in e for e in report.errors), report.errors
    thm = _by_name(report)["kappa_pos"]
    assert "LejepaId.Approximate.two_pos" in thm.uses
    assert "statement differs from its pin" in thm.error  # kappa's printed body changed
