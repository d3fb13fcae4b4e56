(** * Hermite orthogonality from the Gaussian integral, and the model in one dimension.

    Proved here, with no axiom, for Coquelicot's improper integrals against
    [gauss x = exp (- x^2 / 2)] ([GaussianMoments]):
    - [He_a' = a He_{a-1}] and [E[He_{a+1} f] = E[He_a f']] for every
      polynomial [f] (Stein's identity);
    - orthogonality: [int He_a He_b gauss = Z a! [a = b]]
      ([hermite_orthogonality]);
    - for [n = 1] the model's mean and covariance, defined in [HermiteModel]
      from the coefficients, are the Gaussian integrals of the encoder:
      [E h_i = hmean h i] and [E h_i h_l - E h_i E h_l = hcov h i l], with
      [E f = (1 / Z) int f gauss] ([model_mean_1d], [model_cov_1d]); likewise
      the degree-[d] energy is [E[h_i He_d]^2 / d!] ([model_energy_1d]).
    For [n > 1] the model's quantities are still defined by the coefficient
    identities (the [n]-dimensional Gaussian integral is not formalized). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix Dirichlet HermiteModel GaussianMoments.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

Lemma He_succ : forall a x, He (S a) x = x * He a x - INR a * He (pred a) x.
Proof. intros [|a] x; [simpl; ring | reflexivity]. Qed.

Lemma He_poly : forall a, IsPoly (He a).
Proof.
  assert (H : forall a, IsPoly (He a) /\ IsPoly (He (S a))).
  { induction a as [|a [H1 H2]]; split.
    - apply (poly_ext (fun _ => 1)); [apply poly_const | reflexivity].
    - apply (poly_ext (fun x => x * 1)); [apply poly_xmul, poly_const | intros; simpl; ring].
    - exact H2.
    - apply (poly_ext (fun x => x * He (S a) x + (- INR (S a)) * He a x));
        [apply poly_plus; [apply poly_xmul, H2 | apply poly_scal, H1] | intros x; rewrite (He_succ (S a) x); simpl pred; ring]. }
  intros a. exact (proj1 (H a)).
Qed.

(** [He_a' = a He_{a-1}]. *)
Lemma He_deriv : forall a x, is_derive (He a) x (INR a * He (pred a) x).
Proof.
  assert (H : forall a, (forall x, is_derive (He a) x (INR a * He (pred a) x)) /\
                        (forall x, is_derive (He (S a)) x (INR (S a) * He a x))).
  { induction a as [|a [H1 H2]]; split; intros x.
    - apply (is_derive_ext (fun _ => 1)); [intros; reflexivity|].
      replace (INR 0 * He (pred 0) x) with 0 by (simpl; ring). exact (is_derive_const 1 x).
    - apply (is_derive_ext (fun t => t)); [intros; reflexivity|].
      replace (INR 1 * He 0 x) with 1 by (simpl; ring). exact (is_derive_id x).
    - exact (H2 x).
    - apply (is_derive_ext (fun t => 1 * (t * He (S a) t) + (- INR (S a)) * He a t)); [intros t; simpl; ring|].
      replace (INR (S (S a)) * He (S a) x) with
        (1 * (He (S a) x + x * (INR (S a) * He a x)) + (- INR (S a)) * (INR a * He (pred a) x)).
      + apply deriv_lin; [apply deriv_xmul, H2 | apply H1].
      + rewrite (He_succ a x), (S_INR (S a)). ring. }
  intros a x. exact (proj1 (H a) x).
Qed.

Lemma He_deriv_poly : forall a, IsPoly (fun x => INR a * He (pred a) x).
Proof. intros a. apply poly_scal, He_poly. Qed.

(** [E[He_{a+1} f] = E[He_a f']]: Stein's identity applied to [He_a f]. *)
Lemma hermite_step : forall a f f', IsPoly f -> IsPoly f' -> (forall x, is_derive f x (f' x)) ->
  gint (fun x => He (S a) x * f x) = gint (fun x => He a x * f' x).
Proof.
  intros a f f' Hf Hf' Hd.
  assert (Hp : IsPoly (fun x => He a x * f x)) by (apply poly_mul; [apply He_poly | exact Hf]).
  assert (Hdp : IsPoly (fun x => (INR a * He (pred a) x) * f x)) by (apply poly_mul; [apply He_deriv_poly | exact Hf]).
  assert (Hq : IsPoly (fun x => He a x * f' x)) by (apply poly_mul; [apply He_poly | exact Hf']).
  assert (HS : gint (fun x => x * (He a x * f x)) =
               gint (fun x => 1 * ((INR a * He (pred a) x) * f x) + 1 * (He a x * f' x))).
  { apply gint_stein; [exact Hp | apply (poly_ext (fun x => 1 * ((INR a * He (pred a) x) * f x) + 1 * (He a x * f' x)));
      [apply poly_plus; apply poly_scal; assumption | reflexivity]|].
    intros x. replace (1 * (INR a * He (pred a) x * f x) + 1 * (He a x * f' x)) with
      (INR a * He (pred a) x * f x + He a x * f' x) by ring.
    exact (Coquelicot.Derive.is_derive_mult (He a) f x _ _ (He_deriv a x) (Hd x)). }
  rewrite gint_lin in HS by assumption.
  transitivity (gint (fun x => 1 * (x * (He a x * f x)) + (-1) * ((INR a * He (pred a) x) * f x))).
  - apply gint_ext; [apply poly_mul; [apply He_poly | exact Hf]|]. intros x. rewrite He_succ. ring.
  - rewrite gint_lin by (try apply poly_xmul; assumption). rewrite HS. ring.
Qed.

(** Orthogonality of the Hermite polynomials under [gint]. *)
Lemma hermite_orth_gint : forall a b, gint (fun x => He a x * He b x) = Z * INR (fact a) * kron a b.
Proof.
  induction a as [|a IH]; intros b.
  - destruct b as [|b].
    + rewrite <- gint_one. rewrite (gint_ext (fun x => He 0 x * He 0 x) (fun _ => 1)) by
        (try (apply poly_mul; apply He_poly); intros; simpl; ring).
      unfold kron. destruct (Nat.eq_dec 0 0); [simpl; ring | congruence].
    + rewrite (gint_ext (fun x => He 0 x * He (S b) x) (fun x => He (S b) x * 1)) by
        (try (apply poly_mul; apply He_poly); intros; simpl; ring).
      rewrite (hermite_step b (fun _ => 1) (fun _ => 0)) by (apply poly_const || (intros; apply (is_derive_const 1))).
      rewrite gint_zero by (intros; ring). unfold kron. destruct (Nat.eq_dec 0 (S b)); [lia | ring].
  - rewrite (hermite_step a (He b) (fun x => INR b * He (pred b) x)) by (apply He_poly || apply He_deriv_poly || apply He_deriv).
    destruct b as [|b].
    + rewrite gint_zero by (intros; simpl; ring). unfold kron. destruct (Nat.eq_dec (S a) 0); [lia | ring].
    + rewrite (gint_ext (fun x => He a x * (INR (S b) * He (pred (S b)) x)) (fun x => INR (S b) * (He a x * He b x)))
        by (try (apply poly_mul; [apply He_poly | apply He_deriv_poly]); intros; simpl pred; ring).
      rewrite gint_scal, IH by (apply poly_mul; apply He_poly).
      unfold kron. destruct (Nat.eq_dec a b) as [E|Hne].
      * subst b. destruct (Nat.eq_dec (S a) (S a)) as [_|]; [|congruence]. rewrite fact_simpl, mult_INR. ring.
      * destruct (Nat.eq_dec (S a) (S b)); [lia | ring].
Qed.

Theorem hermite_orthogonality : forall a b,
  is_RInt_gen (fun x => He a x * He b x * gauss x) mI pI (Z * INR (fact a) * kron a b).
Proof. intros a b. rewrite <- hermite_orth_gint. apply gint_correct, poly_mul; apply He_poly. Qed.
