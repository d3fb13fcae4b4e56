"""What ``lejepa-id verify`` accepts: the fixed theorem list and the assumption allow-list.

This module is the checker's policy, kept apart from its machinery
(:mod:`lejepa_id.proofs.checker`) so that a change of policy is one reviewed diff:

- :data:`REQUIRED_THEOREMS`: every statement of the paper's theorem list (five
  groups: forward, converse, approximate, Dirichlet, planning) that must be audited.
  ``formal/theorems.txt`` may list more, never fewer.
- :data:`STANDARD_AXIOMS`: the axioms of Coq's classical reals and of Coquelicot
  allowed underneath every theorem, each with the hash of its type.
- :data:`PROJECT_ASSUMPTIONS`: the project's own ``Axiom``/``Parameter``
  declarations, each with its kind and the hash of its type. A new assumption, or
  an allowed one whose statement changed, fails the audit until it is reviewed and
  entered here.
- :data:`LAW_RECORDS`: records of laws (facts about primitive notions, as fields)
  that a general statement may take as premises; such a statement is reported as
  relative to those laws, never as verified outright.

Hashes are :func:`lejepa_id.proofs.checker.pin` of the type printed by Coq 8.16 under
``Set Printing All``; ``lejepa-id verify --pins`` prints the current values.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Names of the theorem groups, in the order of the paper's theorem list.
GROUP_TITLES: dict[str, str] = {
    "forward": "Theorem 1, forward (Hermite route)",
    "converse": "Theorem 2, converse (Gaussian uniqueness, Sturm-Liouville route)",
    "approximate": "Theorem 3, approximate identifiability",
    "dirichlet": "Alternative forward proof (Dirichlet energy)",
    "planning": "Theorem 4, planning equivalence",
}


@dataclass(frozen=True)
class Allowed:
    """An allowed assumption: ``kind`` is ``axiom`` (a fact, sort Prop) or
    ``parameter`` (a primitive notion, never of sort Prop)."""

    kind: str
    type_pin: str
    role: str


#: Coq options a ``_CoqProject`` may carry (besides ``-R . LejepaId``): warning
#: settings only. Anything else (``-type-in-type``, ``-impredicative-set``, extra
#: load paths) could change what a proof means, so it is rejected.
LIBRARY = "LejepaId"

#: Flags the checker appends to every ``coqc`` call, after the project's own.
#: A string in a comment that swallows a comment terminator lets a scanner and
#: Coq disagree about what is code, so that warning is an error here.
CHECKER_COQC_FLAGS = ("-w", "+comment-terminator-in-string")

#: Commands that could load code, switch off a kernel check or hide a definition
#: from the dependency walk; never needed here.
BANNED_COMMANDS = (
    "Declare ML Module",
    "Load",
    "Add LoadPath",
    "Add Rec LoadPath",
    "Add ML Path",
    "Unset Guard Checking",
    "Unset Positivity Checking",
    "Unset Universe Checking",
    "bypass_check",
    "Extract Constant",
    "Register",
    "Primitive",
    # Opacity flags change how Coq unfolds a definition; the dependency walk does
    # not depend on them (it takes bodies by cbv), but nothing here needs them.
    "Opaque",
    "Strategy",
)

STANDARD_AXIOMS: dict[str, Allowed] = {
    "Coq.Reals.ClassicalDedekindReals.sig_forall_dec": Allowed(
        "axiom",
        "6ae83178b358bf9d04aa6807b2d13e968fd4f067ea4551cf58ffb064bee26c23",
        "Coq Reals: limited principle of omniscience for decidable nat predicates "
        "(constructs the classical Dedekind reals)",
    ),
    "Coq.Reals.ClassicalDedekindReals.sig_not_dec": Allowed(
        "axiom",
        "e3ef2b96e9a61cd8765b08d1233e8443d3a26592a211f5f4cc616a4ef6537b04",
        "Coq Reals: decidability of double-negated propositions (classical reals)",
    ),
    "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep": Allowed(
        "axiom",
        "dee2d5eae1884204c30073dd661954109a61dcd850f7247f0976339a68cfaaaa",
        "Coq standard library: functions equal at every point are equal",
    ),
    "Coq.Logic.Classical_Prop.classic": Allowed(
        "axiom",
        "070418627f0977ddc45fdc1d43bdb97ab40f91208ef450beaa3502a9ad5cf96d",
        "Coq standard library: excluded middle (used by Coquelicot)",
    ),
}

#: Empty: the last project axiom, the spectral gap C1 (``Converse.hermite_spectrum``),
#: is proved (``Spectrum.spectral_gap``) and is now a required theorem.
PROJECT_ASSUMPTIONS: dict[str, Allowed] = {}

#: Records whose fields are laws: a statement with one of them among its premises
#: holds for every interpretation satisfying the laws, and is reported so.
LAW_RECORDS: dict[str, str] = {
    "LejepaId.Forward.L2Laws": "laws F1-F3 of the Gaussian L^2 interface (Parseval, "
    "Mehler, degree one is linear with Cov(Az) = A A^T); proved for the finite Hermite "
    "expansions (HermiteModel.hermite_laws)",
    "LejepaId.Forward.PolarLaws": "laws T1-T2 (covariance split |M M^T - I|_F <= eps + "
    "W_nl, Pythagorean split of the square error E|h(z) - Qz|^2 = |M - Q|_F^2 + W_nl); "
    "proved for the finite Hermite expansions (HermitePolar.hermite_polar_laws)",
}

#: Project definitions that name a Coquelicot integral, or reach one through other
#: definitions, reviewed as what they say (a Gaussian expectation, an iterated one,
#: ...), each pinned (``type_pin``) to the hash of its printed definition. A
#: statement is an *integral statement* (:mod:`lejepa_id.proofs.kinds`) only if it
#: names an integral itself or reaches one through these; any other definition
#: naming or reaching an integral fails the audit until reviewed here, so that
#: neither ``weight := kappa + 0 * RInt ...`` nor ``weight := kappa + 0 * gexp f``
#: can relabel a coefficient identity.
INTEGRAL_NOTIONS: dict[str, Allowed] = {
    "LejepaId.GaussianMoments.Z": Allowed(
        "integral",
        "adc4bfe1841bf91ab2f1c9f067f9f3d179cc97c5da45634c269e12aec64e5408",
        "the improper integral of exp(-x^2/2) over the line (Gaussian normalizer)",
    ),
    "LejepaId.GaussianMoments.gint": Allowed(
        "integral",
        "dad7c46231ddfaf37d004997feefca1b5ccd7201e54a18c1d4d56a91a0360f3d",
        "int f(x) exp(-x^2/2) dx, improper over the line",
    ),
    "LejepaId.Converse.in_L2": Allowed(
        "integral",
        "4ca98b47fb47f7a0ff3b45309c0b112d0e3a0297193f405deceae7a2bd5f49ee",
        "f is square integrable against the density p (int f^2 p exists, improper)",
    ),
    "LejepaId.GaussianExpectation.gintegrable1": Allowed(
        "integral",
        "93083f701c0c5e998c32582e13dbcc59440e77cad51a11e15f3166cd4abb62c2",
        "f exp(-x^2/2) has an improper integral over the line (the class of gexp)",
    ),
    "LejepaId.HermiteN.gintegrable": Allowed(
        "integral",
        "9dba46d804cf76875ad070b342d608c4c3323b328e123c83eaddb5a3f05ce78f",
        "every inner improper Gaussian integral of the iterated n-dim expectation exists",
    ),
    # Definitions built from those: each stands between a statement and an integral,
    # so each is reviewed and pinned too (kinds.integral_problems).
    "LejepaId.HermiteGauss.gexp": Allowed(
        "integral",
        "e4f93f20d3245c19726e2db4573f7aeaa5867d1a64cb623e124500274d487ce8",
        "the Gaussian expectation on the line: gint f / Z",
    ),
    "LejepaId.HermiteN.gexpn": Allowed(
        "integral",
        "1770361215dd67c77210ef28558c84c9dd70e4af583a3894be5b43d54ef13b00",
        "the iterated n-dim Gaussian expectation: gexp in each coordinate from the last "
        "to the first, the coordinates from n on set to 0",
    ),
    "LejepaId.HermiteN.gwhitened_n": Allowed(
        "integral",
        "73f41f04de783a969cd1aff1a8fc29845df79ac61fbfd4e0113899a399123ea2",
        "an encoder is whitened under gexpn: every mean 0, every covariance entry the identity's",
    ),
    "LejepaId.Mehler.ou_alignment": Allowed(
        "integral",
        "fbc6d28312117e5d744af552f1e986df21e2c46deaea5ff6e0e2a670a389aaef",
        "the alignment loss E_z E_w |h(z) - h(rho z + sqrt(1 - rho^2) w)|^2 under gexpn",
    ),
    "LejepaId.GaussianExpectation.gexp1": Allowed(
        "integral",
        "11b58f47cb2c9a047da27cd829b1d211b7aec20e3083c2c7ea653097029f58cb",
        "the Gaussian expectation of a function of the first coordinate (gexp on the line)",
    ),
    "LejepaId.GaussianExpectation.gclass1": Allowed(
        "integral",
        "f1447fd5c8758887a85994f1ef8c2b8d001cb53fa26d5ac6eed888f8fffae3a2",
        "the class of gexp1: functions of the first coordinate only, continuous and "
        "Gaussian-integrable along it",
    ),
    "LejepaId.GaussianExpectation.gclass": Allowed(
        "integral",
        "ac03a67be0bfd1da4c80a430e381d56ed134428186762d87482110ab3cc9fdfe",
        "the class of gexpn: every stage of the iteration a continuous, Gaussian-integrable "
        "function of the integrated coordinate, the full integral independent of the others",
    ),
    "LejepaId.Converse.is_eigenfunction": Allowed(
        "integral",
        "0a783ad70f8b468a4a0a29fa18c6e468f4150c8b586b8a9cc3d0e6b34602aa29",
        "f is in L^2(p) (in_L2), twice differentiable, and solves the generator equation "
        "f'' + (ln p)' f' = -lam f",
    ),
    "LejepaId.Converse.first_nonconst_eigenfunction": Allowed(
        "integral",
        "8fdce7599442e2fef67befb3a4ecd6875e19bb244e5df05d7405ccf966495743",
        "f is a nonconstant eigenfunction with eigenvalue lam > 0, no larger than that of "
        "any nonconstant eigenfunction",
    ),
}

REQUIRED_THEOREMS: tuple[str, ...] = (
    "LejepaId.Forward.mehler_summable",
    "LejepaId.Forward.corr_bound",
    "LejepaId.Forward.corr_equality_iff",
    "LejepaId.Forward.alignment_lower_bound",
    "LejepaId.Forward.alignment_equality_iff",
    "LejepaId.Forward.forward_identifiability",
    "LejepaId.HermiteModel.model_parseval",
    "LejepaId.HermiteModel.model_mehler",
    "LejepaId.HermiteModel.heval_linear",
    "LejepaId.HermiteModel.lin_part_gram",
    "LejepaId.HermiteModel.forward_identifiability_model",
    "LejepaId.HermiteModel.identity_encoder_whitened",
    "LejepaId.HermiteModel.hermite_laws",
    "LejepaId.HermiteGauss.hermite_orthogonality",
    "LejepaId.HermiteGauss.model_mean_1d",
    "LejepaId.HermiteGauss.model_cov_1d",
    "LejepaId.HermiteGauss.model_energy_1d",
    "LejepaId.HermiteN.gexpn_sumprod",
    "LejepaId.HermiteN.hermite_orthonormal_n",
    "LejepaId.HermiteN.model_mean_n",
    "LejepaId.HermiteN.model_cov_n",
    "LejepaId.HermiteN.model_coef_n",
    "LejepaId.HermiteN.model_energy_n",
    "LejepaId.HermiteN.forward_identifiability_model_n",
    "LejepaId.Mehler.ou_hermite",
    "LejepaId.Mehler.mehler_n",
    "LejepaId.Mehler.model_ou_corr_n",
    "LejepaId.Mehler.model_alignment_n",
    "LejepaId.Mehler.ou_stationary_1d",
    "LejepaId.Mehler.model_ou_stationary",
    "LejepaId.Mehler.model_alignment_ou",
    "LejepaId.Mehler.forward_identifiability_model_ou",
    "LejepaId.IntegrationOrder.fprod_perm",
    "LejepaId.IntegrationOrder.gexpn_sumprod_order",
    "LejepaId.IntegrationOrder.model_moments_order",
    "LejepaId.IntegrationOrder.gwhitened_order",
    "LejepaId.IntegrationOrder.model_sqerr_order",
    "LejepaId.IntegrationOrder.model_alignment_order",
    "LejepaId.Fubini.fubini_rect",
    "LejepaId.GaussFubini.fubini_dom",
    "LejepaId.GaussFubini.gexp_fubini",
    "LejepaId.GaussFubiniN.gexpn_fclass_order",
    "LejepaId.GaussFubiniN.sumprod_fclass",
    "LejepaId.Matrix.rows_orthonormal_orthogonal",
    "LejepaId.Converse.affine_eigen_affine_score",
    "LejepaId.Converse.affine_score_gaussian",
    "LejepaId.Gaussian.gaussian_second_moment",
    "LejepaId.GaussianMoments.gauss_integrable",
    "LejepaId.GaussianMoments.Z_pos",
    "LejepaId.GaussianMoments.gauss_moments",
    "LejepaId.GaussianMoments.stein_identity",
    "LejepaId.Converse.gaussian_affine_in_L2",
    "LejepaId.Converse.hermite_spectrum",
    "LejepaId.Converse.gaussian_affine_eigen_equation",
    "LejepaId.Converse.gaussian_first_eigenfunction",
    "LejepaId.Converse.converse_affine_score",
    "LejepaId.Converse.converse_biconditional",
    "LejepaId.Approximate.kappa_pos",
    "LejepaId.Approximate.W_nl_le_D",
    "LejepaId.Approximate.approx_identifiability",
    "LejepaId.Approximate.thm3_bound_monotone",
    "LejepaId.Approximate.approx_exact",
    "LejepaId.Approximate.thm3_bound_linear",
    "LejepaId.Forward.pythagorean_delta_bound",
    "LejepaId.Forward.approx_identifiability_assembled",
    "LejepaId.HermitePolar.hermite_polar_laws",
    "LejepaId.HermitePolar.approx_identifiability_model",
    "LejepaId.HermiteN.model_sqerr_n",
    "LejepaId.HermiteN.approx_identifiability_model_n",
    "LejepaId.Mehler.approx_identifiability_model_ou",
    "LejepaId.Compact.compact_max",
    "LejepaId.Polar.max_polar",
    "LejepaId.PolarFactor.polar_factor",
    "LejepaId.Dirichlet.am_gm",
    "LejepaId.Dirichlet.am_gm_equality",
    "LejepaId.Dirichlet.jensen_exp",
    "LejepaId.Dirichlet.dirichlet_energy_bound",
    "LejepaId.Dirichlet.dirichlet_energy_equality",
    "LejepaId.Dirichlet.cauchy_schwarz",
    "LejepaId.Dirichlet.norm_preserving_linear_isometry",
    "LejepaId.Dirichlet.orthogonal_jacobian_lipschitz",
    "LejepaId.Dirichlet.bilipschitz_isometry",
    "LejepaId.Dirichlet.isometry_linear",
    "LejepaId.Dirichlet.dirichlet_identifiability",
    "LejepaId.Dirichlet.trace_det_am_gm2",
    "LejepaId.Dirichlet.trace_det_equality2",
    "LejepaId.Dirichlet.dirichlet_jacobian_bound2",
    "LejepaId.Dirichlet.dirichlet_jacobian_equality2",
    "LejepaId.Dirichlet.dirichlet_identifiability2",
    "LejepaId.Dirichlet.dirichlet_identifiability2_satisfiable",
    "LejepaId.Dirichlet.det_det2",
    "LejepaId.Dirichlet.det_det3",
    "LejepaId.Dirichlet.det_upper_triangular",
    "LejepaId.Dirichlet.det_gram_upper",
    "LejepaId.Dirichlet.cholesky_exists",
    "LejepaId.Dirichlet.gram_det_pos_iff",
    "LejepaId.Dirichlet.det_gram_chol",
    "LejepaId.Dirichlet.trace_det_am_gm",
    "LejepaId.Dirichlet.trace_det_equality",
    "LejepaId.Dirichlet.dirichlet_jacobian_bound",
    "LejepaId.Dirichlet.dirichlet_jacobian_equality",
    "LejepaId.Dirichlet.dirichlet_identifiability_n",
    "LejepaId.Dirichlet.dirichlet_identifiability_n_satisfiable",
    "LejepaId.Dirichlet.dirichlet_optimal2_general",
    "LejepaId.GaussianExpectation.gexp_is_expectation",
    "LejepaId.GaussianExpectation.gexp_faithful",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss1",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss1_satisfiable",
    "LejepaId.GaussianExpectation.gexpn_is_expectation",
    "LejepaId.GaussianExpectation.gexpn_faithful",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_satisfiable",
    "LejepaId.GaussianExpectation.gauss_log_volume_zero",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density_satisfiable",
    "LejepaId.GaussianExpectation.gauss_whitened_energy",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened",
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened_satisfiable",
    "LejepaId.GaussFubiniN.fclass_gclass",
    "LejepaId.GaussFubiniN.fclass_order_gclass",
    "LejepaId.Planning.step_push",
    "LejepaId.Planning.cost_push",
    "LejepaId.Planning.planning_cost_equal",
    "LejepaId.Planning.planning_minimizers_coincide",
    "LejepaId.Planning.planning_values_coincide",
    "LejepaId.Planning.planning_orthogonal_cost",
    "LejepaId.Planning.planning_orthogonal_minimizers",
    "LejepaId.Planning.planning_orthogonal_values",
    "LejepaId.Planning.pushed_kernel_markov",
    "LejepaId.Planning.stochastic_cost_equal",
    "LejepaId.Planning.stochastic_minimizers_coincide",
    "LejepaId.Planning.stochastic_values_coincide",
)
