(** * Theorem 3: approximate identifiability (docs/model.md, section 9, group 3).

    The quantitative bound of the paper, stated over the reals.  With
    [rho] the OU correlation, [delta] the excess alignment loss
    [L_h - 2 (1 - rho) tr Cov(h)], [W_nl] the variance carried by Hermite
    degrees [>= 2], [eps = |Cov(h) - I|_F] and [mq = |M - Q|_F] the distance of
    the linear part [M] from its polar factor [Q]:
    - [2 rho (1 - rho) > 0];
    - [delta >= 2 rho (1 - rho) W_nl] implies [W_nl <= D], [D = delta / (2 rho (1 - rho))];
    - with [mq <= eps + W_nl], the total error [mq^2 + W_nl] is [<= D + (eps + D)^2];
    - the bound is monotone in [delta] and [eps];
    - [delta = eps = 0] forces zero error;
    - [eps + D <= 1] gives the bound [<= 2 D + eps].
    Everything here is proved; no axiom is used.  The two analytic inputs
    (the Pythagorean split giving [delta >= 2 rho (1 - rho) W_nl], and the
    polar bound giving [mq <= eps + W_nl]) are hypotheses here; the assembled
    form in [Forward.v] ([approx_identifiability_assembled]) derives them
    from the laws of the Hermite interface and the polar factor. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
Open Scope R_scope.

(** The curvature constant of the OU channel seen by the nonlinear part. *)
Definition kappa (rho : R) : R := 2 * rho * (1 - rho).

(** [D = delta / (2 rho (1 - rho))]. *)
Definition D_of (rho delta : R) : R := delta / kappa rho.

(** The published bound [D + (eps + D)^2]. *)
Definition thm3_bound (rho delta eps : R) : R :=
  D_of rho delta + (eps + D_of rho delta) ^ 2.

Theorem kappa_pos : forall rho, 0 < rho < 1 -> 0 < kappa rho.
Proof. intros rho [H0 H1]. unfold kappa. nra. Qed.

Lemma D_nonneg : forall rho delta, 0 < rho < 1 -> 0 <= delta -> 0 <= D_of rho delta.
Proof.
  intros rho delta Hr Hd. unfold D_of.
  apply Rmult_le_pos; [exact Hd|]. left. apply Rinv_0_lt_compat, kappa_pos, Hr.
Qed.

Theorem W_nl_le_D :
  forall rho delta W_nl,
    0 < rho < 1 -> kappa rho * W_nl <= delta -> W_nl <= D_of rho delta.
Proof.
  intros rho delta W Hr Hd. unfold D_of.
  pose proof (kappa_pos rho Hr) as Hk.
  apply (Rmult_le_reg_l (kappa rho)); [exact Hk|].
  field_simplify; [lra | lra].
Qed.

(** The full Theorem-3 bound. *)
Theorem approx_identifiability :
  forall rho delta eps W_nl mq,
    0 < rho < 1 ->
    0 <= W_nl ->
    0 <= mq ->
    mq <= eps + W_nl ->
    kappa rho * W_nl <= delta ->
    mq ^ 2 + W_nl <= thm3_bound rho delta eps.
Proof.
  intros rho delta eps W mq Hr HW Hmq Hpolar Hdelta.
  pose proof (W_nl_le_D rho delta W Hr Hdelta) as HWD.
  unfold thm3_bound.
  set (D := D_of rho delta) in *.
  assert (mq ^ 2 <= (eps + D) ^ 2) by (simpl; nra).
  lra.
Qed.

(** Monotonicity of the bound in [delta] and in [eps]. *)
Theorem thm3_bound_monotone :
  forall rho delta1 delta2 eps1 eps2,
    0 < rho < 1 ->
    0 <= delta1 <= delta2 ->
    0 <= eps1 <= eps2 ->
    thm3_bound rho delta1 eps1 <= thm3_bound rho delta2 eps2.
Proof.
  intros rho d1 d2 e1 e2 Hr Hd He.
  pose proof (kappa_pos rho Hr) as Hk.
  assert (HD : D_of rho d1 <= D_of rho d2).
  { unfold D_of. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hk | lra]. }
  pose proof (D_nonneg rho d1 Hr (proj1 Hd)).
  unfold thm3_bound. simpl. nra.
Qed.

(** [delta = eps = 0]: the error vanishes (both the linear and nonlinear parts). *)
Theorem approx_exact :
  forall rho W_nl mq,
    0 < rho < 1 -> 0 <= W_nl -> 0 <= mq ->
    mq <= 0 + W_nl -> kappa rho * W_nl <= 0 ->
    mq ^ 2 + W_nl = 0 /\ W_nl = 0 /\ mq = 0.
Proof.
  intros rho W mq Hr HW Hmq Hp Hd.
  pose proof (approx_identifiability rho 0 0 W mq Hr HW Hmq Hp Hd) as Hb.
  unfold thm3_bound, D_of in Hb. unfold Rdiv in Hb. rewrite Rmult_0_l in Hb.
  assert (W = 0) by (simpl in Hb; nra).
  subst W. split; [|split]; [simpl in *; nra | reflexivity | nra].
Qed.

(** Small-error regime: [eps + D <= 1] gives a bound linear in the inputs. *)
Theorem thm3_bound_linear :
  forall rho delta eps,
    0 < rho < 1 -> 0 <= delta -> 0 <= eps ->
    eps + D_of rho delta <= 1 ->
    thm3_bound rho delta eps <= 2 * D_of rho delta + eps.
Proof.
  intros rho delta eps Hr Hd He H1.
  pose proof (D_nonneg rho delta Hr Hd).
  unfold thm3_bound. simpl. nra.
Qed.
