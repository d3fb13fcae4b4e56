(** * Top file: the whole development.  [make -C formal] compiles it;
    [lejepa-id verify] recompiles it from scratch and audits the axioms of
    every main theorem listed in [theorems.txt]. *)
From LejepaId Require Export Prelude Matrix Compact Polar PolarFactor Gaussian Spectrum GaussianMoments Approximate Forward HermiteModel HermiteGauss HermitePolar HermiteN Mehler GaussianExpectation IntegrationOrder Fubini GaussFubini GaussFubiniN Converse Dirichlet Planning.
