/*===- gpucg-cuda-probe.c - Is a CUDA GPU usable here? --------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Exits 0 and prints one line per device when every device can be used:     *|
|* the driver loads, and each device's primary context takes a small          *|
|* allocation. Otherwise prints why on stderr and exits 1. lit runs it to     *|
|* decide the `cuda-gpu` feature (test/lit.cfg.py).                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gpucg_runtime.h"

#include <stdio.h>

int main(void) {
  int count = 0;
  gpucg_status status = gpucg_device_count(&count);
  if (status != GPUCG_SUCCESS) {
    fprintf(stderr, "gpucg-cuda-probe: no usable CUDA GPU: %s\n",
            gpucg_last_error());
    return 1;
  }
  if (count == 0) {
    fprintf(stderr,
            "gpucg-cuda-probe: no usable CUDA GPU: the driver sees no "
            "device\n");
    return 1;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    gpucg_device_info info;
    uint64_t buffer = 0;
    if ((status = gpucg_init(ordinal)) != GPUCG_SUCCESS ||
        (status = gpucg_device_get_info(&info)) != GPUCG_SUCCESS ||
        (status = gpucg_malloc(&buffer, 256)) != GPUCG_SUCCESS ||
        (status = gpucg_free(buffer)) != GPUCG_SUCCESS) {
      fprintf(stderr, "gpucg-cuda-probe: device %d is not usable: %s\n",
              ordinal, gpucg_last_error());
      return 1;
    }
    printf("device %d: %s, sm_%d%d, %d SMs, %zu MiB, driver %d.%d\n", ordinal,
           info.name, info.compute_capability_major,
           info.compute_capability_minor, info.multiprocessor_count,
           info.total_memory_bytes >> 20, info.driver_version / 1000,
           info.driver_version % 1000 / 10);
  }
  return 0;
}
