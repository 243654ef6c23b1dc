#!/usr/bin/env bash
# PostgreSQL's own baselines, one sitting: 15 single-row enqueuers alone, 15 single-row dequeuers alone (from a backlog), both at once.
set -e
cd "$(dirname "$0")/../../.."
OUT=/tmp/baselines-alone
COMMON="--profile quick --drivers pgbench-minimal --layouts dbq_seq --batch-sizes 1 --repeat 3 --max-backlog 100000000"
./bench run $COMMON --producers 15 --consumers 0 --out $OUT/enqueue-alone
./bench run $COMMON --producers 0 --consumers 15 --backlog 200000 --out $OUT/dequeue-alone
./bench run $COMMON --producers 15 --consumers 15 --out $OUT/both
