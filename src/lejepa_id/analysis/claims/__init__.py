"""Claims: the paper's predictions, one registered rule per module, judged on data.

- :mod:`.base`: a judged :class:`Claim`, its :class:`Premise` checks and run counts;
- :mod:`.registry`: versioned rules (:class:`ClaimRule`), :func:`register_claim` (which
  refuses a rule that cannot fail) and :func:`judge_all`;
- :mod:`.files`: ``claims.json`` written and read;
- one module per built-in claim (listed in :mod:`.builtin`), and :mod:`.fabricate`, the
  fabricated runs each uses to show it can fail.
"""

from lejepa_id.analysis.claims.base import (
    COUNT_KEYS,
    REQUIRED,
    VERDICTS,
    Claim,
    Premise,
    check,
    failed_premises,
    premise_status,
)
from lejepa_id.analysis.claims.files import (
    EXTERNAL_FILES,
    SCHEMA_VERSION,
    collect_claims,
    read_claims_file,
    write_claims,
)
from lejepa_id.analysis.claims.registry import (
    ClaimRefusedError,
    ClaimRule,
    Evidence,
    claim_ids,
    current,
    judge,
    judge_all,
    register_claim,
    version_line,
    versions,
)

__all__ = [
    "COUNT_KEYS",
    "EXTERNAL_FILES",
    "REQUIRED",
    "SCHEMA_VERSION",
    "VERDICTS",
    "Claim",
    "ClaimRefusedError",
    "ClaimRule",
    "Evidence",
    "Premise",
    "check",
    "claim_ids",
    "collect_claims",
    "current",
    "failed_premises",
    "judge",
    "judge_all",
    "premise_status",
    "read_claims_file",
    "register_claim",
    "version_line",
    "versions",
    "write_claims",
]
