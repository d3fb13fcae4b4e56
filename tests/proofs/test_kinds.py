"""docs/proof-kinds.md says what each pinned theorem proves, derived from its printed statement."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lejepa_id.proofs import kinds, policy

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    """The formal lists and docs/proof-kinds.md in a scratch checkout (no Coq needed)."""
    (tmp_path / "formal").mkdir()
    for name in ("theorems.txt", "statements.txt", "kinds.txt", "VERIFICATION.md"):
        shutil.copy(ROOT / "formal" / name, tmp_path / "formal" / name)
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / kinds.DOC_PATH, tmp_path / kinds.DOC_PATH)
    return tmp_path


def test_committed_doc_and_kinds_are_current():
    assert kinds.problems(ROOT / "formal") == []
    assert kinds.main(["--check", "--root", str(ROOT)]) == 0, (
        "run: python -m lejepa_id.proofs.kinds"
    )


def test_every_row_has_a_kind_and_a_reason():
    rows = kinds.rows(ROOT / "formal")
    assert rows and all(r.derived in kinds.KINDS and r.rationale for r in rows)
    by_name = {r.name.split(".")[-1]: r.derived for r in rows}
    # Fixed points: an integral equation, and a statement with a law premise.
    assert by_name["hermite_orthogonality"] == "integral"
    assert by_name["forward_identifiability"] == "law-relative"
    # The n-dimensional model: the integrals are iterated ones; Theorem 3 still keeps
    # the coefficient alignment loss, so it is not a pure integral statement.
    assert by_name["hermite_orthonormal_n"] == "integral"
    assert by_name["approx_identifiability_model_n"] == "mixed"
    assert by_name["approx_identifiability_model"] == "coefficient"
    # With Mehler's formula and stationarity as integrals (Mehler.v), the model's
    # Theorems 1 and 3 name no coefficient-defined notion.
    assert by_name["forward_identifiability_model_ou"] == "integral"
    assert by_name["approx_identifiability_model_ou"] == "integral"
    assert by_name["model_alignment_ou"] == "mixed"


def test_a_stale_doc_is_caught(tmp_path):
    root = _copy(tmp_path)
    doc = root / kinds.DOC_PATH
    doc.write_text(doc.read_text().replace("coefficient identity |", "integral statement |", 1))
    assert kinds.main(["--check", "--root", str(root)]) == 1
    assert kinds.main(["--root", str(root)]) == 0  # regenerating fixes it
    assert kinds.main(["--check", "--root", str(root)]) == 0


def test_a_kind_claimed_beyond_the_statement_is_caught(tmp_path, capsys):
    root = _copy(tmp_path)
    path = root / "formal" / kinds.KINDS_FILE
    text = path.read_text()
    line = next(x for x in text.splitlines() if x.startswith("LejepaId.HermiteModel.model_mehler"))
    path.write_text(text.replace(line, line.replace("| coefficient |", "| integral |")))
    assert any(
        "model_mehler" in p and "says integral" in p for p in kinds.problems(root / "formal")
    )
    assert kinds.main(["--check", "--root", str(root)]) == 1
    assert "model_mehler" in capsys.readouterr().err


def test_a_statement_that_changes_kind_needs_a_new_classification(tmp_path):
    # A re-pinned statement that now names an integral is no longer a coefficient identity
    # (it keeps the coefficient-defined halignment, so it is "mixed").
    root = _copy(tmp_path)
    path = root / "formal" / "statements.txt"
    text = path.read_text()
    head = "== theorem LejepaId.HermiteModel.model_mehler |"
    i = text.index(head)
    j = text.index("\n", text.index("\n", i) + 1)
    # Kinds come from Coq's walk (the `refs` lines), not the text: a text mention
    # of an integral changes nothing, a reference to one does.
    path.write_text(text[:j] + " (RInt_gen.RInt_gen f a b)" + text[j:])
    assert kinds.problems(root / "formal") == []
    path.write_text(text[:j] + "\nrefs Coquelicot.RInt_gen.RInt_gen" + text[j:])
    found = kinds.problems(root / "formal")
    assert any("model_mehler" in p and "is mixed" in p for p in found)


def test_unclassified_and_extra_rows_are_caught(tmp_path):
    root = _copy(tmp_path)
    path = root / "formal" / kinds.KINDS_FILE
    lines = path.read_text().splitlines()
    dropped = [x for x in lines if not x.startswith("LejepaId.Planning.step_push ")]
    dropped.append("LejepaId.Nowhere.ghost | algebra | not a listed theorem")
    path.write_text("\n".join(dropped) + "\n")
    found = kinds.problems(root / "formal")
    assert any("step_push" in p and "not classified" in p for p in found)
    assert any("ghost" in p and "not in theorems.txt" in p for p in found)


GINT = "LejepaId.GaussianMoments.gint"  # a reviewed integral notion (policy.INTEGRAL_NOTIONS)


@pytest.mark.parametrize(
    ("text", "refs", "uses", "status", "kind"),
    [
        ("forall x, P x", ["Coquelicot.RInt_gen.is_RInt_gen"], [], "verified", "integral"),
        ("forall x, P x", ["Coquelicot.Derive.is_derive"], [], "verified", "analysis"),
        ("forall x, eq x x", [], ["LejepaId.HermiteModel.hmean"], "verified", "coefficient"),
        # the encoder function and its record are not coefficient-defined notions
        ("forall x, eq x x", [], ["LejepaId.HermiteModel.heval"], "verified", "algebra"),
        (
            "forall x, eq x x",
            ["Coquelicot.RInt_gen.RInt_gen"],
            ["LejepaId.HermitePolar.hsqerr"],
            "verified",
            "mixed",
        ),
        ("forall x, eq x x", [], ["LejepaId.Dirichlet.is_expectation"], "verified", "expectation"),
        ("forall x, eq x x", [], [], "verified", "algebra"),
        # the text alone does not make an integral statement: Coq's references do
        ("forall x, RInt_gen.RInt_gen f a b = x", [], [], "verified", "algebra"),
        # a law record as a premise, or at the head (the laws proved for a model)
        ("forall G (_ : Forward.L2Laws G), eq G G", [], [], "verified", "law-relative"),
        (
            "Forward.L2Laws HermiteModel.hermite_notions",
            [],
            ["LejepaId.HermiteModel.hermite_notions"],
            "verified",
            "coefficient",
        ),
        ("forall x, eq x x", [], [], "law-relative", "law-relative"),
        ("forall x, eq x x", [], [], "axiom-relative", "axiom-relative"),
    ],
)
def test_derive(text, refs, uses, status, kind):
    assert kinds.derive(text, uses, {}, status, refs, {}) == kind


def test_an_integral_inside_a_definition_counts_only_if_reviewed():
    # Through a reviewed integral notion, a statement is an integral statement.
    def_refs = {GINT: ["Coquelicot.RInt_gen.RInt_gen"]}
    assert kinds.derive("forall f, P f", [GINT], {}, "", [], def_refs) == "integral"
    # The review's laundering: weight := kappa + 0 * RInt (fun _ => 0) 0 1 names an
    # integral, but is no reviewed notion: the statement stays what it was, and the
    # definition is reported until reviewed.
    weight = "LejepaId.Approximate.weight"
    defs = {weight: "fun rho => Rplus (kappa rho) (Rmult 0 (RInt.RInt (fun _ => 0) 0 1))"}
    def_refs = {weight: ["Coquelicot.RInt.RInt", "Coq.Reals.Rdefinitions.RbaseSymbolsImpl.R"]}
    uses = [weight, "LejepaId.Approximate.kappa"]
    assert kinds.derive("forall rho, P rho", uses, defs, "", [], def_refs) == "algebra"
    found = kinds.integral_problems(set(uses), defs, def_refs)
    assert found and "weight names an integral but is not a reviewed" in found[0]


def test_a_definition_reaching_an_integral_through_others_must_be_reviewed():
    # weight names no integral, only gexp (which names gint, which names RInt_gen):
    # both unreviewed steps are reported, with the integral-naming notion they reach.
    gexp, weight = "LejepaId.HermiteGauss.gexp", "LejepaId.Approximate.weight"
    kappa = "LejepaId.Approximate.kappa"
    defs = {GINT: "x", gexp: "y", weight: "z", kappa: "k"}
    def_refs = {GINT: ["Coquelicot.RInt_gen.RInt_gen"], gexp: [], weight: [], kappa: []}
    edges = {gexp: [GINT], weight: [gexp, kappa], kappa: [], GINT: []}
    notions = {GINT: policy.INTEGRAL_NOTIONS[GINT]}
    uses = {GINT, gexp, weight, kappa}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(policy, "INTEGRAL_NOTIONS", notions)
        found = kinds.integral_problems(uses, defs, def_refs, edges)
    assert [f.split(" but ")[0].split(":")[0] for f in found] == [  # sorted by name
        f"{weight} reaches the integral notion {GINT}",
        f"integral notion {GINT}",  # the stand-in text "x" is not gint's printed definition
        f"{gexp} reaches the integral notion {GINT}",
    ]
    # Without the edges only the direct rule applies.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(policy, "INTEGRAL_NOTIONS", notions)
        assert not any("reaches" in f for f in kinds.integral_problems(uses, defs, def_refs))


def test_a_reviewed_integral_notion_is_pinned_to_its_definition():
    defs = {GINT: "something else"}
    found = kinds.integral_problems({GINT}, defs, {GINT: ["Coquelicot.RInt_gen.RInt_gen"]})
    assert found == [
        f"integral notion {GINT}: its printed definition differs from its pin in "
        "policy.INTEGRAL_NOTIONS"
    ]


def test_verification_table_has_a_proves_column_from_the_statements():
    # The checker's table (and so the README's) labels each row by its printed statement.
    from lejepa_id.proofs import report as proof_report
    from lejepa_id.proofs.findings import Report, TheoremResult

    rep = Report(formal_dir="formal")
    rep.definitions = {GINT: "fun f => RInt_gen.RInt_gen f a b"}
    rep.definition_refs = {GINT: ["Coquelicot.RInt_gen.RInt_gen"]}
    rep.theorems = [
        TheoremResult(
            "forward",
            "LejepaId.X.t_int",
            "s1",
            printed_type="forall f, P (GaussianMoments.gint f)",
            uses=[GINT],
        ),
        TheoremResult(
            "forward",
            "LejepaId.X.t_coef",
            "s2",
            printed_type="eq x y",
            uses=["LejepaId.HermiteModel.halignment"],
        ),
    ]
    table = proof_report.render_markdown(rep)
    assert "| `t_int` | s1 | integral statement | verified |" in table
    assert "| `t_coef` | s2 | coefficient identity | verified |" in table


def test_a_call_of_an_integral_notion_offline_is_caught(tmp_path):
    # The committed `calls` lines are Coq's project edges: a coefficient notion that
    # came to call the Gaussian integral would need a review, found without Coq too.
    root = _copy(tmp_path)
    path = root / "formal" / "statements.txt"
    text = path.read_text()
    head = "== definition LejepaId.HermiteModel.halignment\n"
    i = text.index(head) + len(head)
    j = text.index("\n", i) + 1
    assert kinds.problems(root / "formal") == []
    path.write_text(text[:j] + f"calls {GINT}\n" + text[j:])
    found = kinds.problems(root / "formal")
    reach = f" reaches the integral notion {GINT} but is not a reviewed integral notion itself"
    # halignment itself, and the definitions that call it (through it, gint).
    assert f"LejepaId.HermiteModel.halignment{reach}" in " ".join(found)
    assert f"LejepaId.HermiteModel.hermite_notions{reach}" in " ".join(found)
    assert all(reach in f for f in found)


def test_stale_calls_are_caught_by_the_audit(tmp_path):
    from lejepa_id.proofs import statements
    from lejepa_id.proofs.findings import Report

    rep = Report(formal_dir="formal")
    weight = "LejepaId.Approximate.weight"
    rep.definitions = {weight: "fun rho => kappa rho", "LejepaId.Approximate.kappa": "k"}
    rep.definition_refs = {weight: [], "LejepaId.Approximate.kappa": []}
    rep.definition_edges = {weight: ["LejepaId.Approximate.kappa"]}
    rep.assumptions = {}
    path = tmp_path / statements.FILENAME
    body = f"== definition {weight}\nfun rho => kappa rho\ncalls LejepaId.Approximate.kappa\n"
    path.write_text(body)
    statements.check(rep, path)
    assert rep.errors == []
    path.write_text(body.replace("calls LejepaId.Approximate.kappa\n", ""))
    statements.check(rep, path)
    assert len(rep.errors) == 1 and "`refs` or `calls` of " + weight in rep.errors[0]
