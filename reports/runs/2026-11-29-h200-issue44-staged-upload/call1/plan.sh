step probe-build nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/upload_probe build/device/upload_probe.cu
step upload-probe /tmp/upload_probe
