step probe-build nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/ring_probe build/device/ring_probe.cu
step ring-probe /tmp/ring_probe
