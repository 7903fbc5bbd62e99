#!/bin/sh
# Regenerates the fixtures of TestExports (internal/dataio/exports_test.go)
# with the real writers: pandas and scikit-learn (export.py), then R
# (export.R). Debian: apt-get install python3-pandas python3-sklearn
# r-base-core. Written with pandas 1.5.3, scikit-learn 1.2.1, R 4.2.2.
set -e
cd "$(dirname "$0")"
/usr/bin/python3 export.py
Rscript export.R
