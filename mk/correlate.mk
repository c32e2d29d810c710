# Correlation with GPGPU-Sim (docs/results/correlation.md, tools/correlate.py).
#   make test-correlate  the tool's tests without GPGPU-Sim or nvcc: the
#                        statistics parser, the per-kernel join, r and MAE,
#                        the page, the runner on a fake GPGPU-Sim tree
# The correlation itself needs a GPGPU-Sim build and runs by hand:
#   tools/correlate.py --gpgpusim DIR --cuda CUDA_WITH_CUOBJDUMP --section after
.PHONY: test-correlate
TEST_TARGETS += test-correlate

test-correlate:
	@python3 tests/correlate/test_correlate.py
