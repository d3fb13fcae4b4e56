(** * Theorem 2: the converse, Gaussian uniqueness by the Sturm-Liouville route
    (docs/model.md, section 9, group 2).

    For a smooth positive density [p] on [R] with score [s = p' / p], the
    generator of the associated Langevin / OU-type diffusion is
    [K f = f'' + s f'].  If the first non-constant eigenfunction of [K] is
    affine, then the score is affine with negative slope, hence [p] is a
    Gaussian density; conversely a Gaussian density has an affine first
    eigenfunction.

    Proved here: affine eigenfunction implies affine score with negative
    slope; affine score with negative slope implies the Gaussian form
    [p x = K exp (- c (x - m)^2 / 2)] (the published development took this
    step as an axiom; here it is proved by integrating the score with
    Coquelicot's derivative library and the mean value theorem); [x - m]
    solves the eigen-equation of a Gaussian with eigenvalue [c], is twice
    differentiable everywhere and square integrable (finite Gaussian second
    moment, [Gaussian.v]): it is an eigenfunction, with no axiom.  The
    spectral gap of the Gaussian (C1, [hermite_spectrum]: no non-constant
    eigenfunction has an eigenvalue below [c]), formerly the one project
    axiom, is proved in [Spectrum.v]; it gives "first" in the
    Gaussian-to-affine direction.  No project axiom.

    Definitions exclude junk: an eigenfunction must be twice differentiable
    everywhere ([ex_derive] of [f] and of [f'], so Coquelicot's total
    [Derive], which returns 0 where no derivative exists, never speaks for a
    non-differentiable function), and square integrability is Coquelicot's
    improper Riemann integral of [f^2 p] over the whole line. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Gaussian Spectrum.
Open Scope R_scope.

(** The score of a density. *)
Definition score (p : R -> R) (x : R) : R := Derive p x / p x.

(** The generator [K f = f'' + s f']. *)
Definition generator (p f : R -> R) (x : R) : R := Derive (Derive f) x + score p x * Derive f x.

Definition smooth_density (p : R -> R) : Prop := (forall x, 0 < p x) /\ (forall x, ex_derive p x).

(** [f] is square integrable against the density [p]: the improper
    (Riemann) integral of [f^2 p] over [(-oo, +oo)] exists (Coquelicot's
    [ex_RInt_gen]). *)
Definition in_L2 (p f : R -> R) : Prop :=
  ex_RInt_gen (fun x => f x ^ 2 * p x) (Rbar_locally m_infty) (Rbar_locally p_infty).

(** [f] is twice differentiable at every point. *)
Definition twice_differentiable (f : R -> R) : Prop :=
  forall x, ex_derive f x /\ ex_derive (Derive f) x.

(** [f] is an eigenfunction of [K] in [L^2(p)], with [K f = - lam f]: square
    integrable, twice differentiable everywhere, and solving the equation at
    every point. *)
Definition is_eigenfunction (p f : R -> R) (lam : R) : Prop :=
  in_L2 p f /\ twice_differentiable f /\ forall x, generator p f x = - lam * f x.

Definition nonconstant (f : R -> R) : Prop := exists x y, f x <> f y.

(** [f] is a first non-constant eigenfunction: its eigenvalue [lam > 0] is
    the smallest among non-constant eigenfunctions in [L^2(p)]. *)
Definition first_nonconst_eigenfunction (p f : R -> R) (lam : R) : Prop :=
  is_eigenfunction p f lam /\ nonconstant f /\ 0 < lam /\
  forall g mu, is_eigenfunction p g mu -> nonconstant g -> lam <= mu.

Definition affine (f : R -> R) : Prop := exists a b, forall x, f x = a * x + b.

(** The Gaussian density with precision [c] and mean [m], up to its
    normalizing constant [K > 0]. *)
Definition gaussian_form (K c m : R) (x : R) : R := K * exp (- (c / 2) * (x - m) ^ 2).

Definition is_gaussian (p : R -> R) : Prop :=
  exists K c m, 0 < K /\ 0 < c /\ forall x, p x = gaussian_form K c m x.

(** [x - m] is square integrable against the Gaussian (its second moment is
    finite; proved in [Gaussian.v], no axiom). *)
Theorem gaussian_affine_in_L2 :
  forall K c m, 0 < K -> 0 < c -> in_L2 (gaussian_form K c m) (fun x => x - m).
Proof. intros K c m HK Hc. exact (gaussian_second_moment K c m HK Hc). Qed.

Lemma Derive_affine : forall f a b, (forall x, f x = a * x + b) -> forall x, Derive f x = a.
Proof.
  intros f a b Hf x. rewrite (Derive_ext f (fun x => a * x + b)) by exact Hf.
  apply is_derive_unique. auto_derive; [exact I | ring].
Qed.

Lemma Derive2_affine : forall f a b, (forall x, f x = a * x + b) -> forall x, Derive (Derive f) x = 0.
Proof.
  intros f a b Hf x. rewrite (Derive_ext (Derive f) (fun _ => a)) by apply (Derive_affine f a b Hf).
  apply Derive_const.
Qed.

(** An affine eigenfunction with nonzero slope forces an affine score with
    slope [-lam]. *)
Theorem affine_eigen_affine_score :
  forall p f a b lam, (forall x, 0 < p x) ->
  (forall x, f x = a * x + b) -> a <> 0 ->
  (forall x, generator p f x = - lam * f x) ->
  forall x, score p x = - lam * x + (- lam * b / a).
Proof.
  intros p f a b lam Hp Hf Ha Heig x. pose proof (Heig x) as H. unfold generator in H.
  rewrite (Derive2_affine f a b Hf), (Derive_affine f a b Hf), Hf in H.
  apply (Rmult_eq_reg_r a); [|exact Ha]. field_simplify; [|exact Ha]. lra.
Qed.

(** Integrating an affine score with negative slope gives the Gaussian form. *)
Theorem affine_score_gaussian :
  forall p c e, smooth_density p -> 0 < c ->
  (forall x, score p x = - c * x + e) ->
  forall x, p x = gaussian_form (exp (ln (p (e / c)))) c (e / c) x.
Proof.
  intros p c e [Hp Hd] Hc Hs.
  set (m := e / c).
  set (g := fun x => ln (p x) + c / 2 * (x - m) ^ 2).
  assert (Hg : forall x, is_derive g x 0).
  { intros x. unfold g.
    evar (d : R). assert (Hdd : is_derive (fun x => ln (p x) + c / 2 * (x - m) ^ 2) x d).
    { unfold d. auto_derive; [repeat split; auto | reflexivity]. }
    assert (Hd0 : d = 0).
    { unfold d. pose proof (Hp x).
      change (Derive (fun x => p x) x) with (Derive p x).
      replace (Derive p x) with (score p x * p x) by (unfold score; field; lra).
      rewrite Hs. unfold m. field. lra. }
    rewrite Hd0 in Hdd. exact Hdd. }
  assert (Hconst : forall x, g x = g m).
  { intros x. destruct (Rtotal_order x m) as [Hlt|[Heq|Hgt]].
    - apply (eq_is_derive g x m); [intros t _; apply Hg | exact Hlt].
    - rewrite Heq. reflexivity.
    - symmetry. apply (eq_is_derive g m x); [intros t _; apply Hg | exact Hgt]. }
  intros x. pose proof (Hconst x) as H. unfold g in H.
  replace ((m - m) ^ 2) with 0 in H by ring.
  unfold gaussian_form. fold m.
  rewrite <- exp_plus.
  replace (ln (p m) + - (c / 2) * (x - m) ^ 2) with (ln (p x)) by lra.
  apply eq_sym, exp_ln, Hp.
Qed.

(** The Gaussian form is a smooth density with score [- c (x - m)]. *)
Lemma gaussian_smooth : forall K c m, 0 < K -> smooth_density (gaussian_form K c m).
Proof.
  intros K c m HK. split.
  - intros x. unfold gaussian_form. apply Rmult_lt_0_compat; [exact HK | apply exp_pos].
  - intros x. unfold gaussian_form. auto_derive. exact I.
Qed.

Lemma gaussian_score : forall K c m, 0 < K -> forall x, score (gaussian_form K c m) x = - c * (x - m).
Proof.
  intros K c m HK x. unfold score.
  rewrite (is_derive_unique (gaussian_form K c m) x
             (gaussian_form K c m x * (- c * (x - m)))).
  - field. unfold gaussian_form. apply Rgt_not_eq, Rmult_lt_0_compat; [exact HK | apply exp_pos].
  - unfold gaussian_form. auto_derive; [exact I|]. replace (x + - m) with (x - m) by ring. set (E := exp _). field.
Qed.

(** C1, Hermite spectrum of the Gaussian (spectral gap), formerly an axiom:
    for the Gaussian with precision [c], every non-constant,
    twice-differentiable, square-integrable solution [g] of
    [g'' - c (x - m) g' = - mu g] has [mu >= c].  Proved in [Spectrum.v]
    ([spectral_gap]) by the energy route, with no Kummer asymptotics: on
    every interval [int w g'^2 = mu int w g^2 + [w g g']], the boundary
    terms come within any [eps] of 0 at points as far out as wanted (a
    Mills-ratio bound, from the integrability of [g^2 w] alone), so [g'] is
    square integrable; [g'] solves the equation with eigenvalue [mu - c],
    and the same identity for [g'] gives [(mu - c) int w g'^2 >= - (small)]
    with [int w g'^2 > 0], so [mu >= c]. *)
Theorem hermite_spectrum :
  forall K c m, 0 < K -> 0 < c ->
  forall g mu, is_eigenfunction (gaussian_form K c m) g mu -> nonconstant g -> c <= mu.
Proof.
  intros K c m HK Hc g mu [HL2 [H2 Heq]] Hnc.
  apply (spectral_gap K c m HK Hc g mu HL2 H2); [|exact Hnc].
  intros x. pose proof (Heq x) as H. unfold generator in H.
  rewrite gaussian_score in H by exact HK. lra.
Qed.

(** [x - m] is twice differentiable and solves [K f = - c f] for the
    Gaussian with precision [c] (no axiom). *)
Theorem gaussian_affine_eigen_equation :
  forall K c m, 0 < K ->
  twice_differentiable (fun x => x - m) /\
  forall x, generator (gaussian_form K c m) (fun x => x - m) x = - c * (x - m).
Proof.
  intros K c m HK. assert (Hf : forall x, (fun x => x - m) x = 1 * x + - m) by (intros; ring).
  split.
  - intros x. split; [auto_derive; exact I|].
    apply (ex_derive_ext (fun _ => 1)); [|apply ex_derive_const].
    intros t. symmetry. apply (Derive_affine (fun x => x - m) 1 (- m) Hf).
  - intros x. unfold generator. cbv beta.
    rewrite (Derive2_affine (fun x => x - m) 1 (- m) Hf x), (Derive_affine (fun x => x - m) 1 (- m) Hf x).
    rewrite gaussian_score by exact HK. ring.
Qed.

(** A Gaussian density has the affine first eigenfunction [x - m], with
    eigenvalue [c] (its minimality is C1, [hermite_spectrum]). *)
Theorem gaussian_first_eigenfunction :
  forall K c m, 0 < K -> 0 < c ->
  first_nonconst_eigenfunction (gaussian_form K c m) (fun x => x - m) c.
Proof.
  intros K c m HK Hc. pose proof (hermite_spectrum K c m HK Hc) as Hgap.
  pose proof (gaussian_affine_in_L2 K c m HK Hc) as HL2.
  destruct (gaussian_affine_eigen_equation K c m HK) as [H2 Heq].
  assert (Heig : is_eigenfunction (gaussian_form K c m) (fun x => x - m) c).
  { split; [exact HL2|]. split; [exact H2|]. exact Heq. }
  split; [exact Heig|]. split; [exists 0, 1; lra|]. split; [exact Hc|]. exact Hgap.
Qed.

(** Theorem 2 (converse): if the first non-constant eigenfunction of the
    generator is affine, the score is affine with negative slope and the
    density is Gaussian. *)
Theorem converse_affine_score :
  forall p f lam, smooth_density p ->
  first_nonconst_eigenfunction p f lam -> affine f ->
  (exists alpha beta, alpha < 0 /\ forall x, score p x = alpha * x + beta) /\ is_gaussian p.
Proof.
  intros p f lam Hsm [[_ [_ Heig]] [[x0 [y0 Hnc]] [Hlam _]]] [a [b Hf]].
  assert (Ha : a <> 0).
  { intros ->. apply Hnc. rewrite !Hf. ring. }
  pose proof (affine_eigen_affine_score p f a b lam (proj1 Hsm) Hf Ha Heig) as Hs.
  split.
  - exists (- lam), (- lam * b / a). split; [lra | exact Hs].
  - exists (exp (ln (p ((- lam * b / a) / lam)))), lam, ((- lam * b / a) / lam).
    split; [apply exp_pos|]. split; [exact Hlam|].
    apply (affine_score_gaussian p lam (- lam * b / a) Hsm Hlam Hs).
Qed.

(** The biconditional: a smooth density is Gaussian if and only if the first
    non-constant eigenfunction of its generator is affine. *)
Theorem converse_biconditional :
  forall p, smooth_density p ->
  ((exists f lam, first_nonconst_eigenfunction p f lam /\ affine f) <-> is_gaussian p).
Proof.
  intros p Hsm. split.
  - intros [f [lam [Hfirst Haff]]]. exact (proj2 (converse_affine_score p f lam Hsm Hfirst Haff)).
  - intros [K [c [m [HK [Hc Hp]]]]].
    assert (Hpe : p = gaussian_form K c m).
    { (* pointwise-equal densities are equal (functional extensionality,
         already an axiom of the standard-library reals) *)
      apply functional_extensionality. exact Hp. }
    exists (fun x => x - m), c. rewrite Hpe. split.
    + apply gaussian_first_eigenfunction; assumption.
    + exists 1, (- m). intros; ring.
Qed.
