#!/usr/bin/env bash
# Set up lejepa-identifiability in ./.venv.
#   bash scripts/setup.sh          Python packages (torch 2.13.0, the package)
#   bash scripts/setup.sh --all    also the extras and system packages the full test suite
#                                  uses: Coq + Coquelicot (proofs), Mesa EGL/OSMesa and
#                                  MuJoCo (Reacher rendering), Chromium (HTML report test),
#                                  pdflatex with booktabs (the LaTeX tables' compile test),
#                                  zsh (the completion script's test)
set -euo pipefail
cd "$(dirname "$0")/.."
ALL=0
[[ "${1:-}" == "--all" ]] && ALL=1

if [[ $ALL == 1 ]]; then
  need=()
  command -v coqc >/dev/null || need+=(coq libcoq-coquelicot)
  [[ -d "$(coqc -where 2>/dev/null)/user-contrib/Coquelicot" ]] || need+=(libcoq-coquelicot)
  command -v chromium >/dev/null || need+=(chromium)
  command -v zsh >/dev/null || need+=(zsh) # the zsh completion script's test
  # pdflatex (texlive-latex-base) and booktabs.sty (texlive-latex-recommended).
  command -v pdflatex >/dev/null || need+=(texlive-latex-base texlive-latex-recommended)
  kpsewhich booktabs.sty >/dev/null 2>&1 || need+=(texlive-latex-recommended)
  for lib in libEGL_mesa.so.0 libOSMesa.so.8 libOpenGL.so.0; do
    ldconfig -p | grep -q "$lib" || need+=(libegl1 libegl-mesa0 libgl1-mesa-dri libopengl0 libosmesa6)
  done
  if ((${#need[@]})); then
    SUDO=""
    [[ $(id -u) == 0 ]] || SUDO="sudo"
    echo "installing system packages: $(printf '%s\n' "${need[@]}" | sort -u | tr '\n' ' ')"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      $(printf '%s\n' "${need[@]}" | sort -u) >/dev/null
  fi
fi

[[ -x .venv/bin/python ]] || python3 -m venv .venv
PIP=(.venv/bin/python -m pip install -q --disable-pip-version-check)
# Pinned: torch 2.13.0. Which build that is depends on pip's configuration: the project's
# machines point pip at a local wheel folder with the CPU build; from the public index a
# bare pin on Linux is the multi-GB CUDA build. For the CPU build elsewhere, install it
# first from PyTorch's CPU index (docs/usage.md: --index-url https://download.pytorch.org/whl/cpu);
# this line then finds it installed.
# requirements-lock.txt pins everything else to the versions the project was tested with.
"${PIP[@]}" torch==2.13.0 -c requirements-lock.txt
TARGET=.
[[ $ALL == 1 ]] && TARGET='.[dev,reacher]'
# The rest through uv: the same pinned versions as pip installs (the lock fixes them), in a
# third of the time (26 s against 79 s for the full set on the project's machine). Torch
# came first through pip, which knows this machine's local CPU wheel, and uv keeps it.
# pip does it all if uv cannot be had.
if "${PIP[@]}" uv==0.13.9 && .venv/bin/uv pip install -q --python .venv/bin/python \
  -c requirements-lock.txt -e "$TARGET"; then
  :
else
  "${PIP[@]}" -c requirements-lock.txt -e "$TARGET"
fi
