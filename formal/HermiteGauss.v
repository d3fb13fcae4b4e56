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
    For every [n], [HermiteN.v] proves the same for the iterated
    [n]-dimensional Gaussian integral (and the square error of
    [HermitePolar]); the alignment loss stays the coefficient form of
    Mehler's formula. *)

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

(** ** The model for [n = 1]: its mean and covariance are Gaussian integrals. *)

(** The Gaussian expectation [E f = (1 / Z) int f gauss]. *)
Definition gexp (f : R -> R) : R := gint f / Z.

Lemma psi1 : forall alpha x, psi 1 alpha (fun _ => x) = / sqrt (INR (fact (alpha 0%nat))) * He (alpha 0%nat) x.
Proof. intros alpha x. unfold psi. cbn [fprod]. unfold Rdiv. ring. Qed.

Lemma psi1_poly : forall alpha, IsPoly (fun x => psi 1 alpha (fun _ => x)).
Proof.
  intros alpha. apply (poly_ext (fun x => / sqrt (INR (fact (alpha 0%nat))) * He (alpha 0%nat) x));
    [apply poly_scal, He_poly | intros; rewrite psi1; reflexivity].
Qed.

Lemma psi1_zero : forall x, psi 1 (fun _ => 0%nat) (fun _ => x) = 1.
Proof. intros x. rewrite psi1. simpl. rewrite sqrt_1. field. Qed.

(** The normalized [psi] are orthonormal: [int psi_a psi_b gauss = Z [a = b]]. *)
Lemma gint_psi1 : forall alpha beta,
  gint (fun x => psi 1 alpha (fun _ => x) * psi 1 beta (fun _ => x)) = Z * kron (alpha 0%nat) (beta 0%nat).
Proof.
  intros alpha beta. set (a := alpha 0%nat). set (b := beta 0%nat).
  rewrite (gint_ext _ (fun x => (/ sqrt (INR (fact a)) * / sqrt (INR (fact b))) * (He a x * He b x)))
    by (try (apply poly_mul; apply psi1_poly); intros; rewrite !psi1; unfold a, b; ring).
  rewrite gint_scal, hermite_orth_gint by (apply poly_mul; apply He_poly).
  unfold kron. destruct (Nat.eq_dec a b) as [<-|]; [|ring].
  assert (Hs : 0 < sqrt (INR (fact a))) by (apply sqrt_lt_R0, lt_0_INR, lt_O_fact).
  pose proof (sqrt_sqrt (INR (fact a)) (pos_INR _)) as Hss.
  set (s := sqrt (INR (fact a))) in *. rewrite <- Hss. field. lra.
Qed.

Lemma poly_fsum : forall N (F : nat -> R -> R), (forall k, IsPoly (F k)) -> IsPoly (fun x => fsum N (fun k => F k x)).
Proof.
  induction N as [|N IH]; intros F HF; cbn [fsum]; [apply poly_const|].
  apply poly_plus; [apply IH, HF | apply HF].
Qed.

Lemma gint_fsum : forall N (F : nat -> R -> R), (forall k, IsPoly (F k)) ->
  gint (fun x => fsum N (fun k => F k x)) = fsum N (fun k => gint (F k)).
Proof.
  induction N as [|N IH]; intros F HF; cbn [fsum].
  - apply gint_zero. intros; reflexivity.
  - rewrite (gint_ext (fun x => fsum N (fun k => F k x) + F N x) (fun x => 1 * fsum N (fun k => F k x) + 1 * F N x))
      by (try (apply poly_plus; [apply poly_fsum|]); auto; intros; ring).
    rewrite gint_lin, IH by (try apply poly_fsum; auto). ring.
Qed.

Lemma kron_diag : forall k, kron k k = 1.
Proof. intros k. unfold kron. destruct (Nat.eq_dec k k); congruence. Qed.

(** A double sum whose weights vanish off the diagonal. *)
Lemma diag_collapse : forall N (w a : nat -> nat -> R),
  (forall k k', (k < N)%nat -> (k' < N)%nat -> w k k' = kron k k' * w k k) ->
  fsum N (fun k => fsum N (fun k' => w k k' * a k k')) = fsum N (fun k => w k k * a k k).
Proof.
  intros N w a Hw. apply fsum_ext. intros k Hk.
  rewrite (fsum_ext N _ (fun k' => kron k k' * (w k k * a k k'))) by (intros k' Hk'; rewrite (Hw k k' Hk Hk'); ring).
  exact (fsum_kron N k (fun k' => w k k * a k k') Hk).
Qed.

Lemma basis1_inj : forall (h : HEncoder 1) k k', (k < size h)%nat -> (k' < size h)%nat ->
  basis h k 0%nat = basis h k' 0%nat -> k = k'.
Proof.
  intros h k k' Hk Hk' E. destruct (Nat.eq_dec k k') as [|Hne]; [assumption|].
  destruct (distinct 1 h k k' Hk Hk' Hne) as [j [Hj Hd]]. replace j with 0%nat in Hd by lia. congruence.
Qed.

Lemma heval_poly : forall (h : HEncoder 1) i, IsPoly (fun x => heval h (fun _ => x) i).
Proof. intros h i. unfold heval. apply poly_fsum. intros k. apply poly_scal, psi1_poly. Qed.

Lemma gint_heval : forall (h : HEncoder 1) i, gint (fun x => heval h (fun _ => x) i) = Z * hmean h i.
Proof.
  intros h i. unfold heval. rewrite gint_fsum by (intros; apply poly_scal, psi1_poly).
  unfold hmean. rewrite <- fsum_scal. apply fsum_ext. intros k _.
  rewrite gint_scal by apply psi1_poly.
  rewrite (gint_ext (fun x => psi 1 (basis h k) (fun _ => x))
             (fun x => psi 1 (basis h k) (fun _ => x) * psi 1 (fun _ => 0%nat) (fun _ => x)))
    by (try apply psi1_poly; intros; rewrite psi1_zero; ring).
  rewrite gint_psi1. change (hdeg h k) with (basis h k 0%nat). ring.
Qed.

Lemma gint_heval2 : forall (h : HEncoder 1) i l,
  gint (fun x => heval h (fun _ => x) i * heval h (fun _ => x) l) = Z * fsum (size h) (fun k => coef h i k * coef h l k).
Proof.
  intros h i l. set (p := fun k x => psi 1 (basis h k) (fun _ : nat => x)).
  assert (Hp : forall k, IsPoly (p k)) by (intros k; apply psi1_poly).
  rewrite (gint_ext _ (fun x => fsum (size h) (fun k => fsum (size h) (fun k' => (coef h i k * coef h l k') * (p k x * p k' x)))))
    by (try (apply poly_mul; apply heval_poly); intros x; unfold heval; rewrite fsum_mul_fsum;
        apply fsum_ext; intros; apply fsum_ext; intros; unfold p; ring).
  rewrite gint_fsum by (intros k; apply poly_fsum; intros k'; apply poly_scal, poly_mul; apply Hp).
  rewrite (fsum_ext _ _ (fun k => fsum (size h) (fun k' => kron (basis h k 0%nat) (basis h k' 0%nat) * (Z * (coef h i k * coef h l k'))))).
  - rewrite diag_collapse.
    + rewrite <- fsum_scal. apply fsum_ext. intros k _. unfold kron. destruct (Nat.eq_dec _ _); [ring | congruence].
    + intros k k' Hk Hk'. destruct (Nat.eq_dec k k') as [<-|Hne]; [rewrite !kron_diag; ring|].
      unfold kron. destruct (Nat.eq_dec k k'); [congruence|].
      destruct (Nat.eq_dec (basis h k 0%nat) (basis h k' 0%nat)) as [E|]; [|ring].
      exfalso. exact (Hne (basis1_inj h k k' Hk Hk' E)).
  - intros k _. rewrite gint_fsum by (intros k'; apply poly_scal, poly_mul; apply Hp).
    apply fsum_ext. intros k' _. rewrite gint_scal by (apply poly_mul; apply Hp).
    unfold p. rewrite gint_psi1. ring.
Qed.

(** The product of two means keeps only the (unique) degree-0 term. *)
Lemma hmean_prod : forall n (h : HEncoder n) i l,
  hmean h i * hmean h l = fsum (size h) (fun k => kron (hdeg h k) 0 * (coef h i k * coef h l k)).
Proof.
  intros n h i l. unfold hmean. rewrite fsum_mul_fsum.
  rewrite (fsum_ext _ _ (fun k => fsum (size h) (fun k' => (kron (hdeg h k) 0 * kron (hdeg h k') 0) * (coef h i k * coef h l k'))))
    by (intros; apply fsum_ext; intros; ring).
  rewrite diag_collapse.
  - apply fsum_ext. intros k _. unfold kron. destruct (Nat.eq_dec (hdeg h k) 0); ring.
  - intros k k' Hk Hk'. destruct (Nat.eq_dec k k') as [<-|Hne]; [rewrite !kron_diag; ring|].
    unfold kron. destruct (Nat.eq_dec k k'); [congruence|].
    destruct (Nat.eq_dec (hdeg h k) 0) as [H0|]; [|ring]. destruct (Nat.eq_dec (hdeg h k') 0) as [H0'|]; [|ring].
    exfalso. exact (Hne (deg0_unique n h k k' Hk Hk' H0 H0')).
Qed.

(** For [n = 1] the model's mean is the Gaussian expectation of the encoder. *)
Lemma gexp_heval : forall (h : HEncoder 1) i, gexp (fun x => heval h (fun _ => x) i) = hmean h i.
Proof. intros h i. unfold gexp. rewrite gint_heval. field. apply Rgt_not_eq, Z_pos. Qed.

Theorem model_mean_1d : forall (h : HEncoder 1) i,
  ex_RInt_gen (fun x => heval h (fun _ => x) i * gauss x) mI pI /\
  gexp (fun x => heval h (fun _ => x) i) = hmean h i.
Proof.
  intros h i. split; [|apply gexp_heval].
  exists (gint (fun x => heval h (fun _ => x) i)). exact (gint_correct _ (heval_poly h i)).
Qed.

(** For [n = 1] the model's covariance is the Gaussian covariance of the encoder. *)
Theorem model_cov_1d : forall (h : HEncoder 1) i l,
  ex_RInt_gen (fun x => heval h (fun _ => x) i * heval h (fun _ => x) l * gauss x) mI pI /\
  gexp (fun x => heval h (fun _ => x) i * heval h (fun _ => x) l) -
  gexp (fun x => heval h (fun _ => x) i) * gexp (fun x => heval h (fun _ => x) l) = hcov h i l.
Proof.
  intros h i l. split.
  { exists (gint (fun x => heval h (fun _ => x) i * heval h (fun _ => x) l)).
    exact (gint_correct _ (poly_mul _ _ (heval_poly h i) (heval_poly h l))). }
  rewrite !gexp_heval, hmean_prod. unfold gexp. rewrite gint_heval2.
  unfold hcov. replace (Z * fsum (size h) (fun k => coef h i k * coef h l k) / Z)
    with (fsum (size h) (fun k => coef h i k * coef h l k)) by (field; apply Rgt_not_eq, Z_pos).
  rewrite <- fsum_minus. apply fsum_ext. intros; ring.
Qed.

Lemma He_psi1 : forall d x, He d x = sqrt (INR (fact d)) * psi 1 (fun _ => d) (fun _ => x).
Proof. intros d x. rewrite psi1. field. apply Rgt_not_eq, sqrt_lt_R0, lt_0_INR, lt_O_fact. Qed.

Lemma gint_heval_He : forall (h : HEncoder 1) i d,
  gint (fun x => heval h (fun _ => x) i * He d x) =
  Z * sqrt (INR (fact d)) * fsum (size h) (fun k => kron (basis h k 0%nat) d * coef h i k).
Proof.
  intros h i d.
  rewrite (gint_ext _ (fun x => fsum (size h) (fun k => (coef h i k * sqrt (INR (fact d))) *
                                   (psi 1 (basis h k) (fun _ => x) * psi 1 (fun _ => d) (fun _ => x)))))
    by (try (apply poly_mul; [apply heval_poly | apply He_poly]); intros x; unfold heval;
        rewrite (He_psi1 d x), (Rmult_comm (fsum _ _)), <- fsum_scal; apply fsum_ext; intros; ring).
  rewrite gint_fsum by (intros k; apply poly_scal, poly_mul; apply psi1_poly).
  rewrite <- fsum_scal. apply fsum_ext. intros k _.
  rewrite gint_scal by (apply poly_mul; apply psi1_poly). rewrite gint_psi1. ring.
Qed.

(** For [n = 1] the model's degree-[d] energy is [E[h_i He_d]^2 / d!], the
    squared coefficient of [h_i] on the normalized [He_d]. *)
Theorem model_energy_1d : forall (h : HEncoder 1) i d,
  ex_RInt_gen (fun x => heval h (fun _ => x) i * He d x * gauss x) mI pI /\
  henergy h i d = gexp (fun x => heval h (fun _ => x) i * He d x) ^ 2 / INR (fact d).
Proof.
  intros h i d. split.
  { exists (gint (fun x => heval h (fun _ => x) i * He d x)).
    exact (gint_correct _ (poly_mul _ _ (heval_poly h i) (He_poly d))). }
  unfold gexp. rewrite gint_heval_He.
  assert (HZ : Z <> 0) by (apply Rgt_not_eq, Z_pos).
  pose proof (sqrt_sqrt (INR (fact d)) (pos_INR _)) as Hss.
  assert (Hs : 0 < sqrt (INR (fact d))) by (apply sqrt_lt_R0, lt_0_INR, lt_O_fact).
  set (S := fsum (size h) (fun k => kron (basis h k 0%nat) d * coef h i k)).
  replace ((Z * sqrt (INR (fact d)) * S / Z) ^ 2 / INR (fact d)) with (S * S).
  2: { set (s := sqrt (INR (fact d))) in *. rewrite <- Hss. field. lra. }
  unfold S, henergy. symmetry. rewrite fsum_mul_fsum.
  rewrite (fsum_ext _ _ (fun k => fsum (size h) (fun k' =>
             (kron (basis h k 0%nat) d * kron (basis h k' 0%nat) d) * (coef h i k * coef h i k'))))
    by (intros; apply fsum_ext; intros; ring).
  rewrite diag_collapse.
  - apply fsum_ext. intros k _. change (hdeg h k) with (basis h k 0%nat).
    unfold kron. destruct (Nat.eq_dec (basis h k 0%nat) d); ring.
  - intros k k' Hk Hk'. destruct (Nat.eq_dec k k') as [<-|Hne]; [rewrite !kron_diag; ring|].
    unfold kron. destruct (Nat.eq_dec k k'); [congruence|].
    destruct (Nat.eq_dec (basis h k 0%nat) d) as [E|]; [|ring].
    destruct (Nat.eq_dec (basis h k' 0%nat) d) as [E'|]; [|ring].
    exfalso. apply Hne, (basis1_inj h k k' Hk Hk'). congruence.
Qed.
