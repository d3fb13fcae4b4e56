(** * A concrete model for Theorem 1: encoders that are finite Hermite expansions.

    An encoder of the class [HEncoder n] maps [z in R^n] to
    [h_i(z) = sum_k coef i k psi (basis k) z], where [psi alpha] is the
    normalized Hermite product [prod_j He_{alpha_j}(z_j) / sqrt (alpha_j !)]
    and the [basis k] are distinct multi-indices.  Its mean, covariance,
    degree-[d] Hermite energies and OU alignment loss are defined through the
    coefficients, by the standard identities of Gaussian analysis
    (orthonormality of the [psi alpha] under [N(0, I_n)], and Mehler's
    formula [E psi_a(z) psi_b(z') = rho^|a|] when [a = b], else [0]); the
    identification of these coefficient formulas with the Gaussian integrals
    is the one thing this file takes from outside, as its definitions.

    Proved here, with no axiom: Parseval (law F1 of [Forward.L2Laws]:
    nonnegative energies, degree-0 energy = squared mean, energies sum to
    variance + squared mean), Mehler's formula in spectral form (law F2),
    "degree one implies linear" (law F3: the degree-one Hermite products are
    the coordinates, so such an encoder is [h(z) = A z], and [A A^T = Cov(h)]);
    hence the class is a model of the laws ([hermite_laws]), and Theorem 1
    holds for it with no premise: a whitened encoder attaining
    [2 (1 - rho) n] is [Q z] with [Q] orthogonal.  The class is not empty (the
    identity encoder is in it, whitened).  For [n = 1] the mean, covariance
    and energies are proved equal to the Gaussian integrals in
    [HermiteGauss]; in every dimension the mean, covariance, coefficients,
    energies and square error are proved equal to iterated Gaussian
    integrals of [heval] in [HermiteN], and the alignment loss to the
    expected squared change over the OU pair in [Mehler]
    ([model_alignment_ou]).  The class is finite expansions (polynomial
    encoders) only; there is no product measure on R^n, the iterated
    integral is defined in a fixed order, and for these polynomial
    integrands [IntegrationOrder] proves that every other order gives the
    same value. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix Dirichlet Approximate Forward.
Open Scope R_scope.

Fixpoint nsum (n : nat) (f : nat -> nat) : nat :=
  match n with
  | O => O
  | S m => (nsum m f + f m)%nat
  end.

Lemma nsum_ge : forall n f i, (i < n)%nat -> (f i <= nsum n f)%nat.
Proof. induction n as [|n IH]; intros f i Hi; simpl; [lia|]. destruct (Nat.eq_dec i n) as [->|]; [lia|]. pose proof (IH f i ltac:(lia)). lia. Qed.

Lemma nsum_zero : forall n f, nsum n f = O -> forall i, (i < n)%nat -> f i = O.
Proof. induction n as [|n IH]; intros f H i Hi; simpl in *; [lia|]. destruct (Nat.eq_dec i n) as [->|]; [lia|]. apply IH; lia. Qed.

Lemma sum_n_fsum : forall a D, sum_n a D = fsum (S D) a.
Proof.
  intros a D. induction D as [|D IH]; [rewrite sum_O; simpl; symmetry; apply Rplus_0_l|].
  rewrite sum_Sn, IH. change (fsum (S (S D)) a) with (fsum (S D) a + a (S D)). reflexivity.
Qed.

(** A sequence vanishing beyond [D] sums to its first [D + 1] terms. *)
Lemma is_series_finite : forall a D, (forall d, (D < d)%nat -> a d = 0) -> is_series a (fsum (S D) a).
Proof.
  intros a D Ha. unfold is_series. apply (is_lim_seq_incr_n (sum_n a) D (fsum (S D) a)).
  apply is_lim_seq_ext with (u := fun _ => fsum (S D) a); [|apply is_lim_seq_const].
  intros k. induction k as [|k IH]; simpl plus; [rewrite sum_n_fsum; reflexivity|].
  replace (S k + D)%nat with (S (k + D)) by lia. rewrite sum_Sn, <- IH, (Ha (S (k + D))) by lia.
  unfold plus; simpl. ring.
Qed.

(** Regrouping a finite family by degree: [sum_d (sum_{deg k = d} a_k) w_d = sum_k a_k w_{deg k}]. *)
Lemma regroup : forall N (deg : nat -> nat) (a w : nat -> R),
  is_series (fun d => fsum N (fun k => kron (deg k) d * a k) * w d) (fsum N (fun k => a k * w (deg k))).
Proof.
  intros N deg a w. set (D := nsum N deg).
  replace (fsum N (fun k => a k * w (deg k))) with
    (fsum (S D) (fun d => fsum N (fun k => kron (deg k) d * a k) * w d)).
  - apply is_series_finite. intros d Hd.
    rewrite (fsum_ext N _ (fun _ => 0)); [rewrite fsum_const; ring|].
    intros k Hk. pose proof (nsum_ge N deg k Hk). unfold kron. destruct (Nat.eq_dec (deg k) d); [lia | ring].
  - rewrite (fsum_ext (S D) _ (fun d => fsum N (fun k => kron (deg k) d * (a k * w d))))
      by (intros d _; rewrite Rmult_comm, <- fsum_scal; apply fsum_ext; intros; ring).
    rewrite fsum_swap. apply fsum_ext. intros k Hk.
    assert (Hlt : (deg k < S D)%nat) by (pose proof (nsum_ge N deg k Hk); unfold D; lia).
    exact (fsum_kron (S D) (deg k) (fun d => a k * w d) Hlt).
Qed.

(** ** The concrete class. *)

(** Probabilists' Hermite polynomials: [He_0 = 1], [He_1 = x],
    [He_{d+2} = x He_{d+1} - (d + 1) He_d]. *)
Fixpoint He (d : nat) (x : R) : R :=
  match d with
  | O => 1
  | S d' =>
      match d' with
      | O => x
      | S d'' => x * He d' x - INR d' * He d'' x
      end
  end.

(** The normalized Hermite product of multi-index [alpha] in [n] variables. *)
Definition psi (n : nat) (alpha : nat -> nat) (z : vec) : R :=
  fprod n (fun j => He (alpha j) (z j) / sqrt (INR (fact (alpha j)))).

Definition mdeg (n : nat) (alpha : nat -> nat) : nat := nsum n alpha.

(** An encoder [h : R^n -> R^n] whose coordinates are finite Hermite expansions
    on a common list of [size] distinct multi-indices [basis k]:
    [h_i(z) = sum_k coef i k psi (basis k) z]. *)
Record HEncoder (n : nat) := {
  size : nat;
  basis : nat -> nat -> nat;
  coef : nat -> nat -> R;
  distinct : forall k k', (k < size)%nat -> (k' < size)%nat -> k <> k' ->
             exists j, (j < n)%nat /\ basis k j <> basis k' j
}.
Arguments size {n}. Arguments basis {n}. Arguments coef {n}.

Definition heval {n} (h : HEncoder n) (z : vec) : vec :=
  fun i => fsum (size h) (fun k => coef h i k * psi n (basis h k) z).

Definition hdeg {n} (h : HEncoder n) (k : nat) : nat := mdeg n (basis h k).

(** The Gaussian quantities of a finite Hermite expansion.  Under
    [z ~ N(0, I_n)] the [psi (basis k)] are orthonormal, [psi 0 = 1], so the
    mean is the coefficient of the zero multi-index, the covariance is the
    coefficient inner product over non-zero multi-indices and the
    degree-[d] energy is the squared norm of the degree-[d] coefficients;
    Mehler's formula ([E psi_a(z) psi_b(z') = rho^|a|] if [a = b], else 0)
    gives the alignment loss.  These standard identities are the
    definitions of the model; [HermiteN.v] and [Mehler.v] prove them equal to
    the (iterated) Gaussian integrals of [heval]. *)
Definition hmean {n} (h : HEncoder n) (i : nat) : R :=
  fsum (size h) (fun k => kron (hdeg h k) 0 * coef h i k).
Definition hcov {n} (h : HEncoder n) (i l : nat) : R :=
  fsum (size h) (fun k => (1 - kron (hdeg h k) 0) * (coef h i k * coef h l k)).
Definition henergy {n} (h : HEncoder n) (i d : nat) : R :=
  fsum (size h) (fun k => kron (hdeg h k) d * coef h i k ^ 2).
Definition halignment {n} (h : HEncoder n) (rho : R) : R :=
  fsum n (fun i => 2 * fsum (size h) (fun k => coef h i k ^ 2 * (1 - rho ^ hdeg h k))).

(** At most one multi-index of the basis has degree 0 (it is the zero one). *)
Lemma deg0_unique : forall n (h : HEncoder n) k k', (k < size h)%nat -> (k' < size h)%nat ->
  hdeg h k = O -> hdeg h k' = O -> k = k'.
Proof.
  intros n h k k' Hk Hk' H0 H0'. destruct (Nat.eq_dec k k') as [|Hne]; [assumption|].
  destruct (distinct n h k k' Hk Hk' Hne) as [j [Hj Hd]].
  unfold hdeg, mdeg in *. rewrite (nsum_zero n _ H0 j Hj), (nsum_zero n _ H0' j Hj) in Hd. lia.
Qed.

(** A sum with at most one selected term. *)
Lemma fsum_select_unique : forall N (P : nat -> nat) (a : nat -> R),
  (forall k k', (k < N)%nat -> (k' < N)%nat -> P k = O -> P k' = O -> k = k') ->
  fsum N (fun k => kron (P k) 0 * a k ^ 2) = fsum N (fun k => kron (P k) 0 * a k) ^ 2.
Proof.
  induction N as [|N IH]; intros P a Hu; cbn [fsum]; [ring|].
  rewrite IH by (intros; apply Hu; lia).
  destruct (Nat.eq_dec (P N) 0) as [HN|HN].
  - assert (Hz : fsum N (fun k => kron (P k) 0 * a k) = 0).
    { rewrite (fsum_ext N _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros k Hk. unfold kron. destruct (Nat.eq_dec (P k) 0) as [Hk0|]; [|ring].
      pose proof (Hu k N ltac:(lia) ltac:(lia) Hk0 HN). lia. }
    rewrite Hz. replace (kron (P N) 0) with 1 by (unfold kron; destruct (Nat.eq_dec (P N) 0); congruence). ring.
  - replace (kron (P N) 0) with 0 by (unfold kron; destruct (Nat.eq_dec (P N) 0); congruence). ring.
Qed.

(** Parseval in the model (the interface law F1, now a theorem). *)
Theorem model_parseval :
  forall n (h : HEncoder n) i,
  (forall d, 0 <= henergy h i d) /\ henergy h i 0%nat = hmean h i ^ 2 /\
  is_series (henergy h i) (hcov h i i + hmean h i ^ 2).
Proof.
  intros n h i. assert (H0 : henergy h i 0%nat = hmean h i ^ 2).
  { unfold henergy, hmean. apply fsum_select_unique. intros k k' Hk Hk'. apply deg0_unique; assumption. }
  split; [|split; [exact H0|]].
  - intros d. apply fsum_nonneg. intros k _. unfold kron. destruct (Nat.eq_dec _ _); [|lra].
    rewrite Rmult_1_l. apply pow2_ge_0.
  - pose proof (regroup (size h) (hdeg h) (fun k => coef h i k ^ 2) (fun _ => 1)) as Hr.
    assert (Hr' : is_series (henergy h i) (fsum (size h) (fun k => coef h i k ^ 2 * 1))).
    { eapply is_series_ext; [|exact Hr]. intros d. unfold henergy. apply Rmult_1_r. }
    replace (hcov h i i + hmean h i ^ 2) with (fsum (size h) (fun k => coef h i k ^ 2 * 1)); [exact Hr'|].
    rewrite <- H0. unfold hcov, henergy. rewrite <- fsum_plus. apply fsum_ext. intros; ring.
Qed.

(** Mehler's formula in the model (the interface law F2, now a theorem). *)
Theorem model_mehler :
  forall n (h : HEncoder n) rho,
  halignment h rho = fsum n (fun i => 2 * Series (fun d => henergy h i d * (1 - rho ^ d))).
Proof.
  intros n h rho. unfold halignment. apply fsum_ext. intros i _. f_equal.
  symmetry. apply is_series_unique.
  exact (regroup (size h) (hdeg h) (fun k => coef h i k ^ 2) (fun d => 1 - rho ^ d)).
Qed.

(** ** Degree one implies linear (the interface law F3, now a theorem). *)

Lemma psi_deg0 : forall n alpha z, nsum n alpha = O -> psi n alpha z = 1.
Proof.
  induction n as [|n IH]; intros alpha z H; [reflexivity|].
  unfold psi. cbn [fprod]. fold (psi n alpha z). cbn [nsum] in H.
  rewrite IH by lia. replace (alpha n) with O by lia. simpl. rewrite ?Rmult_1_r, ?sqrt_1. field.
Qed.

(** A degree-one multi-index is a unit vector [e_p], and [psi e_p z = z_p]. *)
Lemma psi_deg1 : forall n alpha z, nsum n alpha = 1%nat ->
  psi n alpha z = fsum n (fun j => INR (alpha j) * z j).
Proof.
  induction n as [|n IH]; intros alpha z H; [simpl in H; lia|].
  unfold psi. cbn [fprod fsum]. fold (psi n alpha z). cbn [nsum] in H.
  destruct (alpha n) as [|[|an]] eqn:Ha; [| |lia].
  - rewrite IH by lia. simpl. rewrite ?Rmult_1_r, ?sqrt_1. field.
  - rewrite psi_deg0 by lia.
    rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; simpl; rewrite ?Rmult_1_r, ?sqrt_1; field|].
    intros j Hj. rewrite (nsum_zero n alpha ltac:(lia) j Hj). simpl. ring.
Qed.

Lemma deg1_unit : forall n alpha, nsum n alpha = 1%nat ->
  exists p, (p < n)%nat /\ alpha p = 1%nat /\ forall j, (j < n)%nat -> j <> p -> alpha j = O.
Proof.
  induction n as [|n IH]; intros alpha H; [simpl in H; lia|]. cbn [nsum] in H.
  destruct (alpha n) as [|[|an]] eqn:Ha; [| |lia].
  - destruct (IH alpha ltac:(lia)) as [p [Hp [H1 H0]]]. exists p. split; [lia|]. split; [exact H1|].
    intros j Hj Hne. destruct (Nat.eq_dec j n) as [->|]; [exact Ha|]. apply H0; lia.
  - exists n. split; [lia|]. split; [exact Ha|]. intros j Hj Hne. apply (nsum_zero n alpha ltac:(lia)). lia.
Qed.

Section DegreeOne.
  Variables (n : nat) (h : HEncoder n).
  Hypothesis Hmean : forall i, (i < n)%nat -> hmean h i = 0.
  Hypothesis Hhigh : forall i d, (i < n)%nat -> (2 <= d)%nat -> henergy h i d = 0.

  (** Every coefficient off degree one vanishes. *)
  Lemma coef_off_deg1 : forall i k, (i < n)%nat -> (k < size h)%nat -> hdeg h k <> 1%nat -> coef h i k = 0.
  Proof.
    intros i k Hi Hk Hd.
    assert (He : henergy h i (hdeg h k) = 0).
    { destruct (hdeg h k) as [|[|d]] eqn:E; [| lia | apply Hhigh; [exact Hi | lia]].
      destruct (model_parseval n h i) as [_ [H0 _]]. rewrite H0, Hmean by exact Hi. ring. }
    unfold henergy in He.
    assert (Hnn : forall k', (k' < size h)%nat -> 0 <= kron (hdeg h k') (hdeg h k) * coef h i k' ^ 2).
    { intros k' _. unfold kron. destruct (Nat.eq_dec _ _); [rewrite Rmult_1_l; apply pow2_ge_0 | lra]. }
    pose proof (fsum_nonneg_zero _ _ Hnn He k Hk) as Hz.
    unfold kron in Hz. destruct (Nat.eq_dec (hdeg h k) (hdeg h k)) as [_|]; [|congruence].
    nra.
  Qed.

  (** The linear map: [A i j = sum_k coef i k (basis k)_j]. *)
  Definition lin_part : mat := fun i j => fsum (size h) (fun k => coef h i k * INR (basis h k j)).

  Lemma heval_linear : forall z, veq n (heval h z) (mapply n lin_part z).
  Proof.
    intros z i Hi. unfold heval, mapply, lin_part.
    rewrite (fsum_ext n _ (fun j => fsum (size h) (fun k => coef h i k * (INR (basis h k j) * z j))))
      by (intros j _; rewrite Rmult_comm, <- fsum_scal; apply fsum_ext; intros; ring).
    rewrite fsum_swap. apply fsum_ext. intros k Hk.
    destruct (Nat.eq_dec (hdeg h k) 1) as [H1|H1].
    - rewrite psi_deg1 by exact H1. rewrite <- fsum_scal. reflexivity.
    - rewrite (coef_off_deg1 i k Hi Hk H1). rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring).
      rewrite fsum_const. ring.
  Qed.

  (** [A A^T = Cov(h)]: distinct degree-one multi-indices are distinct unit vectors. *)
  Lemma basis_dot : forall k k', (k < size h)%nat -> (k' < size h)%nat ->
    hdeg h k = 1%nat -> hdeg h k' = 1%nat ->
    fsum n (fun j => INR (basis h k j) * INR (basis h k' j)) = kron k k'.
  Proof.
    intros k k' Hk Hk' H1 H1'.
    destruct (deg1_unit n _ H1) as [p [Hp [Hp1 Hp0]]].
    rewrite (fsum_ext n _ (fun j => kron p j * INR (basis h k' j))).
    - rewrite fsum_kron by exact Hp. destruct (deg1_unit n _ H1') as [q [Hq [Hq1 Hq0]]].
      unfold kron. destruct (Nat.eq_dec k k') as [<-|Hne].
      + rewrite Hp1. reflexivity.
      + destruct (Nat.eq_dec p q) as [<-|Hpq]; [|rewrite (Hq0 p Hp Hpq); reflexivity].
        exfalso. destruct (distinct n h k k' Hk Hk' Hne) as [j [Hj Hd]]. apply Hd.
        destruct (Nat.eq_dec j p) as [->|Hjp]; [congruence|]. rewrite (Hp0 j Hj Hjp), (Hq0 j Hj Hjp). reflexivity.
    - intros j Hj. unfold kron. destruct (Nat.eq_dec p j) as [<-|Hne]; [rewrite Hp1; simpl; ring|].
      rewrite (Hp0 j Hj (not_eq_sym Hne)). simpl. ring.
  Qed.

  Lemma lin_part_gram : forall i l, (i < n)%nat -> (l < n)%nat ->
    fsum n (fun j => lin_part i j * lin_part l j) = hcov h i l.
  Proof.
    intros i l Hi Hl. unfold lin_part.
    assert (Hc : forall m k, (m < n)%nat -> (k < size h)%nat ->
      coef h m k = (if Nat.eq_dec (hdeg h k) 1 then 1 else 0) * coef h m k).
    { intros m k Hm Hk. destruct (Nat.eq_dec (hdeg h k) 1) as [|H1]; [ring|].
      rewrite (coef_off_deg1 m k Hm Hk H1). ring. }
    rewrite (fsum_ext n _ (fun j => fsum (size h) (fun k => fsum (size h) (fun k' =>
        (if Nat.eq_dec (hdeg h k) 1 then 1 else 0) * coef h i k *
        ((if Nat.eq_dec (hdeg h k') 1 then 1 else 0) * coef h l k') *
        (INR (basis h k j) * INR (basis h k' j)))))).
    2: { intros j _. rewrite fsum_mul_fsum. apply fsum_ext. intros k Hk.
         apply fsum_ext. intros k' Hk'.
         rewrite (Hc i k Hi Hk) at 1. rewrite (Hc l k' Hl Hk') at 1. ring. }
    rewrite fsum_swap. unfold hcov. apply fsum_ext. intros k Hk.
    rewrite fsum_swap.
    rewrite (fsum_ext (size h) _ (fun k' => kron k k' *
        ((if Nat.eq_dec (hdeg h k) 1 then 1 else 0) * coef h i k * coef h l k'))).
    - rewrite fsum_kron by exact Hk.
      destruct (Nat.eq_dec (hdeg h k) 1) as [H1|H1].
      + unfold kron. destruct (Nat.eq_dec (hdeg h k) 0); [lia|]. ring.
      + rewrite (coef_off_deg1 i k Hi Hk H1). ring.
    - intros k' Hk'.
      destruct (Nat.eq_dec (hdeg h k) 1) as [H1|H1]; [destruct (Nat.eq_dec (hdeg h k') 1) as [H1'|H1']|].
      + rewrite fsum_scal, (basis_dot k k' Hk Hk' H1 H1'). ring.
      + rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring). rewrite fsum_const.
        unfold kron. destruct (Nat.eq_dec k k') as [<-|]; [congruence | ring].
      + rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring). rewrite fsum_const. ring.
  Qed.
End DegreeOne.

(** ** Theorem 1 in the model, with no project axiom. *)

Definition hwhitened {n} (h : HEncoder n) : Prop :=
  (forall i, (i < n)%nat -> hmean h i = 0) /\
  (forall i l, (i < n)%nat -> (l < n)%nat -> hcov h i l = kron i l).

Lemma model_spectral : forall n (h : HEncoder n), hwhitened h ->
  forall i, (i < n)%nat -> spectral_weights (henergy h i).
Proof.
  intros n h [Hm Hc] i Hi. destruct (model_parseval n h i) as [Hp [H0 Hs]].
  rewrite Hm in H0, Hs by exact Hi. rewrite Hc in Hs by exact Hi.
  unfold kron in Hs. destruct (Nat.eq_dec i i) as [_|]; [|congruence].
  repeat split; [exact Hp | rewrite H0; ring | ]. replace 1 with (1 + 0 ^ 2) by ring. exact Hs.
Qed.

Lemma model_alignment_spec : forall n (h : HEncoder n) rho, hwhitened h -> 0 < rho < 1 ->
  halignment h rho = align_spec n (henergy h) rho.
Proof.
  intros n h rho Hw Hr. rewrite model_mehler. unfold align_spec.
  apply fsum_ext. intros i Hi. pose proof (model_spectral n h Hw i Hi) as Hs.
  pose proof Hs as [_ [_ Hsum]].
  rewrite (Series_ext _ (fun d => henergy h i d - henergy h i d * rho ^ d)) by (intros; ring).
  rewrite Series_minus; [| exists 1; exact Hsum | apply mehler_summable; [exact Hs | lra]].
  rewrite (is_series_unique _ _ Hsum). ring.
Qed.

(** The class interprets the notions of the Gaussian [L^2] interface
    ([Forward.L2Notions]) ... *)
Definition hermite_notions : L2Notions := {|
  Encoder := HEncoder; eval := @heval; mean := @hmean; cov := @hcov;
  energy := @henergy; alignment := @halignment |}.

(** ... and satisfies its laws F1-F3 ([Forward.L2Laws]): the laws have a
    model under their intended meaning. *)
Theorem hermite_laws : L2Laws hermite_notions.
Proof.
  split.
  - intros n h i _. exact (model_parseval n h i).
  - intros n h rho _. exact (model_mehler n h rho).
  - intros n h Hm Hhigh. exists (lin_part n h). split.
    + exact (heval_linear n h Hm Hhigh).
    + exact (lin_part_gram n h Hm Hhigh).
Qed.

(** Theorem 1 for encoders that are finite Hermite expansions, with no
    premise and no project axiom: among whitened ones the alignment loss is
    at least [2 (1 - rho) n], and an encoder attaining it is [h(z) = Q z]
    with [Q] orthogonal. *)
Theorem forward_identifiability_model :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> hwhitened h ->
  2 * (1 - rho) * INR n <= halignment h rho /\
  (halignment h rho = 2 * (1 - rho) * INR n ->
   exists Q : mat, orthogonal n Q /\ forall z, veq n (heval h z) (mapply n Q z)).
Proof.
  intros n h rho Hr Hw. exact (forward_identifiability hermite_notions hermite_laws n h rho Hr Hw).
Qed.

(** The model is not empty: the identity encoder [h(z) = z] (basis: the unit
    multi-indices) is a whitened finite Hermite expansion. *)
Definition identity_encoder (n : nat) : HEncoder n.
Proof.
  refine {| size := n; basis := fun k j => if Nat.eq_dec k j then 1%nat else 0%nat;
            coef := fun i k => kron i k |}.
  intros k k' Hk Hk' Hne. exists k. split; [exact Hk|].
  destruct (Nat.eq_dec k k); [|congruence]. destruct (Nat.eq_dec k' k); [congruence|]. lia.
Defined.

Lemma identity_encoder_eval : forall n z, veq n (heval (identity_encoder n) z) z.
Proof.
  intros n z i Hi. unfold heval. simpl.
  rewrite (fsum_ext n _ (fun k => kron i k * z k)); [apply fsum_kron, Hi|].
  intros k Hk. f_equal. rewrite psi_deg1.
  - rewrite (fsum_ext n _ (fun j => kron k j * z j)); [apply fsum_kron, Hk|].
    intros j _. unfold kron. destruct (Nat.eq_dec k j); simpl; ring.
  - clear i Hi. revert k Hk. induction n as [|n IH]; intros k Hk; [lia|]. cbn [nsum].
    destruct (Nat.eq_dec k n) as [->|Hne].
    + destruct (Nat.eq_dec n n); [|congruence].
      assert (nsum n (fun j => if Nat.eq_dec n j then 1%nat else 0%nat) = O).
      { clear IH Hk. assert (Hz : forall m, (m <= n)%nat -> nsum m (fun j => if Nat.eq_dec n j then 1%nat else 0%nat) = O).
        { induction m as [|m IHm]; intros Hm; [reflexivity|]. cbn [nsum]. rewrite IHm by lia.
          destruct (Nat.eq_dec n m); [lia | reflexivity]. }
        apply Hz. lia. }
      lia.
    + destruct (Nat.eq_dec k n); [congruence|]. rewrite IH by lia. reflexivity.
Qed.

Theorem identity_encoder_whitened : forall n, hwhitened (identity_encoder n).
Proof.
  intros n. assert (Hdeg : forall k, (k < n)%nat -> hdeg (identity_encoder n) k = 1%nat).
  { intros k Hk. unfold hdeg, mdeg. simpl. clear -Hk. revert k Hk.
    induction n as [|n IH]; intros k Hk; [lia|]. cbn [nsum].
    destruct (Nat.eq_dec k n) as [->|Hne].
    + destruct (Nat.eq_dec n n); [|congruence].
      assert (Hz : forall m, (m <= n)%nat -> nsum m (fun j => if Nat.eq_dec n j then 1%nat else 0%nat) = O).
      { induction m as [|m IHm]; intros Hm; [reflexivity|]. cbn [nsum]. rewrite IHm by lia.
        destruct (Nat.eq_dec n m); [lia | reflexivity]. }
      rewrite Hz by lia. reflexivity.
    + destruct (Nat.eq_dec k n); [congruence|]. rewrite IH by lia. reflexivity. }
  split.
  - intros i Hi. unfold hmean. simpl. rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
    intros k Hk. change (kron (hdeg (identity_encoder n) k) 0 * kron i k = 0).
    rewrite Hdeg by exact Hk. unfold kron at 1. destruct (Nat.eq_dec 1 0); [lia | ring].
  - intros i l Hi Hl. unfold hcov. simpl.
    rewrite (fsum_ext n _ (fun k => kron i k * kron l k)).
    + rewrite fsum_kron by exact Hi. apply kron_sym.
    + intros k Hk. change ((1 - kron (hdeg (identity_encoder n) k) 0) * (kron i k * kron l k) = kron i k * kron l k).
      rewrite Hdeg by exact Hk. unfold kron at 1. destruct (Nat.eq_dec 1 0); [lia | ring].
Qed.
