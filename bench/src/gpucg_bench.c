/*===- gpucg_bench.c - gpucg kernels against cuBLAS, checked and timed ----===*\
|*                                                                            *|
|* gpucg-bench reads a shapes file, loads the kernels bench/compile_kernels.py *|
|* compiled for it (through libgpucg_cuda_runtime's C API only), checks every *|
|* element of C against cuBLAS (and a host reference for small sizes) and     *|
|* times both with CUDA events, L2 flushed before every run. Several kernels  *|
|* directories (variants: chips, gpucg-compile options) run in one process:   *|
|* each case's inputs are made and cuBLAS is checked and timed once, then     *|
|* every variant's kernels. Usage, formats and methodology:                   *|
|* docs/Benchmark.md.                                                         *|
|*                                                                            *|
|* Exit status: 0 every case agreed (and ran); 1 a case mismatched, failed,   *|
|* or (--check) had no kernel; 2 bad options or input files; 77 no usable     *|
|* CUDA GPU or driver (the runtime's reason is printed).                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cases.h"
#include "gpucg_runtime.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  EXIT_ALL_OK = 0,
  EXIT_CASE_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_NO_GPU = 77,
};

#define MAX_LIST_OPTION 32
/* Timed runs per batch when the number of runs adapts (--max-seconds,
   --spread): the batch's events are read before the next one starts. */
#define ADAPTIVE_BATCH 10

/*===----------------------------------------------------------------------===*/
/* Options                                                                    */
/*===----------------------------------------------------------------------===*/

typedef struct options {
  const char *shapes[MAX_LIST_OPTION];
  int num_shapes;
  const char *filters[MAX_LIST_OPTION];
  int num_filters;
  const char *kernels[MAX_LIST_OPTION]; /* [NAME=]DIR, one per variant */
  int num_kernels;
  const char *csv;
  const char *commit;
  int list;
  int check;
  int dry_run;
  int device_info;
  int flush;
  int iterations;
  int warmup;
  int min_iterations;  /* with max_seconds or spread */
  double max_seconds;  /* 0: every one of `iterations` runs */
  double spread;       /* 0: no early stop on a narrow spread */
  double deadline;     /* seconds from the start; 0: none */
  int device;
  uint64_t seed;
  double host_check_limit; /* largest M*N*K checked on the host */
} options;

static void printUsage(FILE *out) {
  fputs(
      "usage: gpucg-bench --shapes FILE [--shapes FILE...] --kernels "
      "[NAME=]DIR... [options]\n"
      "       gpucg-bench --list --shapes FILE [--kernels [NAME=]DIR...]\n"
      "       gpucg-bench --dry-run --shapes FILE --kernels [NAME=]DIR...\n"
      "       gpucg-bench --device-info\n"
      "\n"
      "Checks gpucg-compiled GEMM kernels element by element against cuBLAS\n"
      "and times both (docs/Benchmark.md).\n"
      "\n"
      "  --shapes FILE        cases, one per line: M N K in_type acc_type "
      "[nn|nt|tn|tt] [name]\n"
      "  --kernels [NAME=]DIR kernels and manifest.txt from "
      "bench/compile_kernels.py;\n"
      "                       repeatable: each DIR is a variant (NAME, else "
      "DIR's last\n"
      "                       component), checked and timed on the same "
      "inputs\n"
      "  --filter TEXT        only cases whose key or name contains TEXT "
      "(repeatable)\n"
      "  --list               print the parsed cases (and their kernels with "
      "--kernels);\n"
      "                       needs no GPU\n"
      "  --dry-run            needs no GPU: check every variant's manifest and "
      ".abi\n"
      "                       files against the cases; rows say DRY-RUN\n"
      "  --check              correctness only: no timing\n"
      "  --iterations N       timed runs per kernel, at most (default 100)\n"
      "  --warmup N           untimed runs first (default 10)\n"
      "  --max-seconds S      stop a kernel's timed runs once they add up to "
      "S seconds\n"
      "  --spread P           ... or once their interquartile range is at "
      "most P\n"
      "                       (a fraction) of their median\n"
      "  --min-iterations N   timed runs before either stop applies "
      "(default 10)\n"
      "  --deadline S         start no case after S seconds (the rest are "
      "listed as\n"
      "                       not run); the rows written stay valid\n"
      "  --no-flush           do not flush L2 between runs\n"
      "  --host-check MNK     check on the host when M*N*K <= MNK (default "
      "134217728; 0: never);\n"
      "                       above it, a case cuBLAS does not take is checked "
      "on\n"
      "                       sampled rows, at most MNK multiply-adds\n"
      "  --seed N             input seed (default 1)\n"
      "  --device N           CUDA device ordinal (default 0)\n"
      "  --csv FILE           also write the rows as CSV\n"
      "  --commit TEXT        gpucg commit, for the header\n"
      "  --device-info        print the header (GPU, driver, CUDA) and exit\n"
      "\n"
      "Exit status: 0 all cases agree; 1 a case mismatched, failed or (with\n"
      "--check) has no kernel; 2 bad usage or input; 77 no CUDA GPU or "
      "driver.\n",
      out);
}

static int parseInt(const char *text, long long min, long long max,
                    long long *value) {
  char *end;
  long long parsed = strtoll(text, &end, 10);
  if (!*text || *end || parsed < min || parsed > max)
    return 0;
  *value = parsed;
  return 1;
}

static int parseDouble(const char *text, double min, double max,
                       double *value) {
  char *end;
  double parsed = strtod(text, &end);
  if (!*text || *end || !(parsed >= min && parsed <= max))
    return 0;
  *value = parsed;
  return 1;
}

/* Returns 1 on success, 0 after printing the problem. */
static int parseOptions(int argc, char **argv, options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->flush = 1;
  opt->iterations = 100;
  opt->warmup = 10;
  opt->min_iterations = 10;
  opt->seed = 1;
  opt->host_check_limit = 134217728.0;
  for (int i = 1; i < argc; ++i) {
    char *arg = argv[i];
    const char *value = NULL;
    char name[64];
    char *equals = strchr(arg, '=');
    if (strncmp(arg, "--", 2) == 0 && equals &&
        (size_t)(equals - arg) < sizeof name) {
      memcpy(name, arg, (size_t)(equals - arg));
      name[equals - arg] = '\0';
      value = equals + 1;
    } else {
      snprintf(name, sizeof name, "%s", arg);
    }
    /* Flags without a value. */
    int *flag = NULL;
    int flagValue = 1;
    if (!strcmp(name, "--list"))
      flag = &opt->list;
    else if (!strcmp(name, "--check"))
      flag = &opt->check;
    else if (!strcmp(name, "--dry-run"))
      flag = &opt->dry_run;
    else if (!strcmp(name, "--device-info"))
      flag = &opt->device_info;
    else if (!strcmp(name, "--no-flush"))
      flag = &opt->flush, flagValue = 0;
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
      printUsage(stdout);
      exit(EXIT_ALL_OK);
    }
    if (flag) {
      if (value) {
        fprintf(stderr, "gpucg-bench: %s takes no value\n", name);
        return 0;
      }
      *flag = flagValue;
      continue;
    }
    if (strncmp(name, "--", 2) != 0) {
      fprintf(stderr, "gpucg-bench: unexpected argument '%s'\n", arg);
      return 0;
    }
    static const char *const valueOptions[] = {
        "--shapes",      "--filter",         "--kernels", "--csv",
        "--commit",      "--iterations",     "--warmup",  "--device",
        "--seed",        "--host-check",     "--deadline",
        "--max-seconds", "--min-iterations", "--spread"};
    int known = 0;
    for (size_t j = 0; j < sizeof valueOptions / sizeof valueOptions[0]; ++j)
      known |= !strcmp(name, valueOptions[j]);
    if (!known) {
      fprintf(stderr, "gpucg-bench: unknown option '%s' (see --help)\n",
              name);
      return 0;
    }
    if (!value) {
      if (i + 1 >= argc) {
        fprintf(stderr, "gpucg-bench: %s needs a value\n", name);
        return 0;
      }
      value = argv[++i];
    }
    long long number;
    if (!strcmp(name, "--shapes") || !strcmp(name, "--filter") ||
        !strcmp(name, "--kernels")) {
      int *count = !strcmp(name, "--shapes")   ? &opt->num_shapes
                   : !strcmp(name, "--filter") ? &opt->num_filters
                                               : &opt->num_kernels;
      const char **list = !strcmp(name, "--shapes")   ? opt->shapes
                          : !strcmp(name, "--filter") ? opt->filters
                                                      : opt->kernels;
      if (*count == MAX_LIST_OPTION) {
        fprintf(stderr, "gpucg-bench: at most %d %s options\n",
                MAX_LIST_OPTION, name);
        return 0;
      }
      list[(*count)++] = value;
    } else if (!strcmp(name, "--csv")) {
      opt->csv = value;
    } else if (!strcmp(name, "--commit")) {
      opt->commit = value;
    } else if (!strcmp(name, "--iterations") &&
               parseInt(value, 1, 1000000, &number)) {
      opt->iterations = (int)number;
    } else if (!strcmp(name, "--warmup") &&
               parseInt(value, 0, 1000000, &number)) {
      opt->warmup = (int)number;
    } else if (!strcmp(name, "--min-iterations") &&
               parseInt(value, 1, 1000000, &number)) {
      opt->min_iterations = (int)number;
    } else if (!strcmp(name, "--max-seconds") &&
               parseDouble(value, 1e-6, 1e6, &opt->max_seconds)) {
    } else if (!strcmp(name, "--spread") &&
               parseDouble(value, 1e-6, 1.0, &opt->spread)) {
    } else if (!strcmp(name, "--deadline") &&
               parseDouble(value, 1e-3, 1e7, &opt->deadline)) {
    } else if (!strcmp(name, "--device") &&
               parseInt(value, 0, 1023, &number)) {
      opt->device = (int)number;
    } else if (!strcmp(name, "--seed") &&
               parseInt(value, 0, INT64_MAX, &number)) {
      opt->seed = (uint64_t)number;
    } else if (!strcmp(name, "--host-check") &&
               parseInt(value, 0, INT64_MAX, &number)) {
      opt->host_check_limit = (double)number;
    } else {
      fprintf(stderr, "gpucg-bench: invalid value '%s' for %s\n", value,
              name);
      return 0;
    }
  }
  if (!opt->device_info && opt->num_shapes == 0) {
    fprintf(stderr, "gpucg-bench: --shapes FILE is required (see --help)\n");
    return 0;
  }
  if (!opt->device_info && !opt->list && opt->num_kernels == 0) {
    fprintf(stderr, "gpucg-bench: --kernels DIR is required (see --help)\n");
    return 0;
  }
  if (opt->dry_run && (opt->list || opt->device_info)) {
    fprintf(stderr,
            "gpucg-bench: --dry-run excludes --list and --device-info\n");
    return 0;
  }
  if (opt->min_iterations > opt->iterations)
    opt->min_iterations = opt->iterations;
  return 1;
}

static int isSelected(const options *opt, const bench_case *c) {
  if (opt->num_filters == 0)
    return 1;
  for (int i = 0; i < opt->num_filters; ++i)
    if (strstr(c->key, opt->filters[i]) || strstr(c->name, opt->filters[i]))
      return 1;
  return 0;
}

/* Seconds since an arbitrary fixed point (C11's wall clock: budgets only). */
static double nowSeconds(void) {
  struct timespec now;
  if (timespec_get(&now, TIME_UTC) != TIME_UTC)
    return 0.0;
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/*===----------------------------------------------------------------------===*/
/* Variants: one kernels directory each                                       */
/*===----------------------------------------------------------------------===*/

#define VARIANT_NAME_MAX 64

typedef struct variant {
  char name[VARIANT_NAME_MAX]; /* "" for a lone --kernels DIR without NAME= */
  const char *directory;
  bench_manifest manifest;
  int have_manifest;
} variant;

/* Splits each --kernels value into a variant. A lone DIR keeps the name ""
   (the output of one kernels directory is as it always was); with several,
   an unnamed DIR is named after its last path component. Names must be
   distinct. Returns 1, or 0 after printing the problem. */
static int parseVariants(const options *opt, variant *variants) {
  for (int i = 0; i < opt->num_kernels; ++i) {
    variant *v = &variants[i];
    memset(v, 0, sizeof *v);
    const char *value = opt->kernels[i];
    const char *equals = strchr(value, '=');
    const char *slash = strchr(value, '/');
    if (equals && (!slash || equals < slash)) {
      size_t length = (size_t)(equals - value);
      if (length == 0 || length >= sizeof v->name) {
        fprintf(stderr, "gpucg-bench: bad variant name in --kernels %s\n",
                value);
        return 0;
      }
      memcpy(v->name, value, length);
      v->directory = equals + 1;
    } else {
      v->directory = value;
      if (opt->num_kernels > 1) {
        size_t length = strlen(value);
        while (length > 1 && value[length - 1] == '/')
          --length;
        size_t begin = length;
        while (begin > 0 && value[begin - 1] != '/')
          --begin;
        snprintf(v->name, sizeof v->name, "%.*s", (int)(length - begin),
                 value + begin);
      }
    }
    for (const char *p = v->name; *p; ++p)
      if (*p == ',' || *p == '"' || *p == ' ') {
        fprintf(stderr,
                "gpucg-bench: variant name '%s' has a comma, quote or space\n",
                v->name);
        return 0;
      }
    for (int j = 0; j < i; ++j)
      if (!strcmp(variants[j].name, v->name)) {
        fprintf(stderr, "gpucg-bench: two variants named '%s' (--kernels)\n",
                v->name);
        return 0;
      }
  }
  return 1;
}

/* Reads every variant's manifest; returns the number of errors. */
static int readManifests(variant *variants, int count) {
  int errors = 0;
  for (int i = 0; i < count; ++i) {
    if (bench_read_manifest(variants[i].directory, &variants[i].manifest,
                            stderr))
      ++errors;
    else
      variants[i].have_manifest = 1;
  }
  return errors;
}

static void freeManifests(variant *variants, int count) {
  for (int i = 0; i < count; ++i)
    if (variants[i].have_manifest)
      bench_manifest_free(&variants[i].manifest);
}

/*===----------------------------------------------------------------------===*/
/* --list                                                                     */
/*===----------------------------------------------------------------------===*/

static const char *kernelStateName(bench_kernel_state state) {
  switch (state) {
  case BENCH_KERNEL_OK:
    return "ok";
  case BENCH_KERNEL_FAILED:
    return "failed";
  case BENCH_KERNEL_MISSING:
    return "missing";
  }
  return "?";
}

static void listCases(const bench_case_list *cases, const options *opt,
                      const variant *variants, int numVariants) {
  int selected = 0;
  for (int i = 0; i < cases->count; ++i)
    selected += isSelected(opt, &cases->cases[i]);
  printf("# %d cases", selected);
  for (int v = 0; v < numVariants; ++v) {
    const bench_manifest *manifest = &variants[v].manifest;
    printf("%s kernels%s%s from %s (chip %s, format %s, options %s, sizes "
           "%s)",
           v ? ";" : ",", variants[v].name[0] ? " " : "", variants[v].name,
           manifest->path, manifest->chip[0] ? manifest->chip : "?",
           manifest->format[0] ? manifest->format : "?",
           manifest->options[0] ? manifest->options : "?",
           manifest->sizes[0] ? manifest->sizes : "static");
  }
  printf("\n");
  for (int i = 0; i < cases->count; ++i) {
    const bench_case *c = &cases->cases[i];
    if (!isSelected(opt, c))
      continue;
    printf("%s M=%" PRId64 " N=%" PRId64 " K=%" PRId64
           " in=%s acc=%s A=%s B=%s values=[-%d,%d] gflop=%.3f name=%s "
           "at=%s:%d",
           c->key, c->m, c->n, c->k, bench_type_name(c->in),
           bench_type_name(c->acc), c->transpose_a ? "KxM" : "MxK",
           c->transpose_b ? "NxK" : "KxN", bench_case_value_range(c),
           bench_case_value_range(c), bench_case_flops(c) * 1e-9, c->name,
           c->file, c->line);
    for (int v = 0; v < numVariants; ++v) {
      const bench_manifest_entry *entry =
          bench_manifest_find(&variants[v].manifest, c->key);
      if (variants[v].name[0])
        printf(" kernel[%s]=%s", variants[v].name,
               kernelStateName(entry ? entry->state : BENCH_KERNEL_MISSING));
      else
        printf(" kernel=%s",
               kernelStateName(entry ? entry->state : BENCH_KERNEL_MISSING));
      for (int j = 0; entry && j < entry->num_launches; ++j)
        printf("%c%s", j ? ',' : ':', entry->abi[j]);
    }
    printf("\n");
  }
}

/*===----------------------------------------------------------------------===*/
/* Errors                                                                     */
/*===----------------------------------------------------------------------===*/

typedef struct error_buffer {
  char text[2048];
} error_buffer;

static void setError(error_buffer *error, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(error->text, sizeof error->text, format, args);
  va_end(args);
}

#define TRY_CUDA(error, call)                                                  \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      setError((error), "%s: %s (%s)", #call, cudaGetErrorName(status_),       \
               cudaGetErrorString(status_));                                   \
      goto done;                                                               \
    }                                                                          \
  } while (0)

#define TRY_CUBLAS(error, call)                                                \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                    \
      setError((error), "%s: %s (%s)", #call, cublasGetStatusName(status_),    \
               cublasGetStatusString(status_));                                \
      goto done;                                                               \
    }                                                                          \
  } while (0)

#define TRY_GPUCG(error, call)                                                 \
  do {                                                                         \
    gpucg_status status_ = (call);                                             \
    if (status_ != GPUCG_SUCCESS) {                                            \
      setError((error), "%s: %s: %s", #call, gpucg_status_name(status_),       \
               gpucg_last_error());                                            \
      goto done;                                                               \
    }                                                                          \
  } while (0)

/*===----------------------------------------------------------------------===*/
/* The GPU session                                                            */
/*===----------------------------------------------------------------------===*/

/* cuBLASLt's workspace: what its Hopper FP8 kernels ask for at most. */
enum { kLtWorkspaceBytes = 32 << 20 };

typedef struct session {
  const options *opt;
  gpucg_device_info info;
  int runtime_version;
  int cublas_version;
  cudaStream_t stream;
  cublasHandle_t cublas;
  /* cuBLASLt, for the 8-bit float cases (cublasGemmEx has no FP8 GEMM),
     and its workspace. */
  cublasLtHandle_t cublas_lt;
  uint64_t lt_workspace;
  uint64_t flush_buffer;
  size_t flush_bytes;
  unsigned flush_counter;
  cudaEvent_t *start;
  cudaEvent_t *stop;
  int num_events;
  float *samples;
} session;

/* Opens the device: EXIT_ALL_OK, EXIT_NO_GPU or EXIT_CASE_FAILED. */
static int openSession(session *s, const options *opt) {
  memset(s, 0, sizeof *s);
  s->opt = opt;
  error_buffer error = {{0}};
  gpucg_status status = gpucg_init(opt->device);
  if (status == GPUCG_ERROR_NO_DRIVER) {
    fprintf(stderr, "gpucg-bench: no CUDA GPU: %s\n", gpucg_last_error());
    return EXIT_NO_GPU;
  }
  if (status != GPUCG_SUCCESS) {
    int count = 0;
    if (gpucg_device_count(&count) == GPUCG_SUCCESS && opt->device >= count) {
      fprintf(stderr, "gpucg-bench: no CUDA GPU %d (%d visible): %s\n",
              opt->device, count, gpucg_last_error());
      return EXIT_NO_GPU;
    }
    fprintf(stderr, "gpucg-bench: gpucg_init(%d): %s: %s\n", opt->device,
            gpucg_status_name(status), gpucg_last_error());
    return EXIT_CASE_FAILED;
  }
  TRY_GPUCG(&error, gpucg_device_get_info(&s->info));
  /* The CUDA runtime and cuBLAS share the device's primary context, which
     gpucg_init made current. A driver older than the runtime is no usable
     GPU either. */
  cudaError_t cudaStatus = cudaSetDevice(opt->device);
  if (cudaStatus == cudaErrorInsufficientDriver ||
      cudaStatus == cudaErrorNoDevice) {
    fprintf(stderr, "gpucg-bench: no usable CUDA GPU: cudaSetDevice(%d): %s (%s)\n",
            opt->device, cudaGetErrorName(cudaStatus),
            cudaGetErrorString(cudaStatus));
    return EXIT_NO_GPU;
  }
  if (cudaStatus != cudaSuccess) {
    setError(&error, "cudaSetDevice(%d): %s (%s)", opt->device,
             cudaGetErrorName(cudaStatus), cudaGetErrorString(cudaStatus));
    goto done;
  }
  TRY_CUDA(&error, cudaRuntimeGetVersion(&s->runtime_version));
  /* A blocking stream: ordered with the legacy default stream, on which the
     runtime's synchronous copies run. */
  TRY_CUDA(&error, cudaStreamCreate(&s->stream));
  TRY_CUBLAS(&error, cublasCreate(&s->cublas));
  TRY_CUBLAS(&error, cublasSetStream(s->cublas, s->stream));
  TRY_CUBLAS(&error, cublasGetVersion(s->cublas, &s->cublas_version));
  TRY_CUBLAS(&error, cublasLtCreate(&s->cublas_lt));
  TRY_GPUCG(&error, gpucg_malloc(&s->lt_workspace, kLtWorkspaceBytes));
  if (!opt->check && !opt->device_info) {
    s->num_events = opt->iterations;
    s->start = calloc((size_t)s->num_events, sizeof *s->start);
    s->stop = calloc((size_t)s->num_events, sizeof *s->stop);
    s->samples = calloc((size_t)s->num_events, sizeof *s->samples);
    if (!s->start || !s->stop || !s->samples) {
      setError(&error, "out of host memory for %d events", s->num_events);
      goto done;
    }
    for (int i = 0; i < s->num_events; ++i) {
      TRY_CUDA(&error, cudaEventCreate(&s->start[i]));
      TRY_CUDA(&error, cudaEventCreate(&s->stop[i]));
    }
    if (opt->flush) {
      /* Twice the L2, so that no operand survives the write. */
      s->flush_bytes = s->info.l2_cache_bytes > 0
                           ? 2 * (size_t)s->info.l2_cache_bytes
                           : (size_t)256 << 20;
      TRY_GPUCG(&error, gpucg_malloc(&s->flush_buffer, s->flush_bytes));
    }
  }
  return EXIT_ALL_OK;
done:
  fprintf(stderr, "gpucg-bench: %s\n", error.text);
  return EXIT_CASE_FAILED;
}

static void closeSession(session *s) {
  for (int i = 0; i < s->num_events; ++i) {
    if (s->start && s->start[i])
      cudaEventDestroy(s->start[i]);
    if (s->stop && s->stop[i])
      cudaEventDestroy(s->stop[i]);
  }
  free(s->start);
  free(s->stop);
  free(s->samples);
  if (s->flush_buffer)
    gpucg_free(s->flush_buffer);
  if (s->cublas)
    cublasDestroy(s->cublas);
  if (s->lt_workspace)
    gpucg_free(s->lt_workspace);
  if (s->cublas_lt)
    cublasLtDestroy(s->cublas_lt);
  if (s->stream)
    cudaStreamDestroy(s->stream);
}

static void formatVersion(int version, char *buffer, size_t size) {
  snprintf(buffer, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

/* The header of the table and the CSV. `s` is NULL in a dry run. */
static void printHeader(FILE *out, const char *prefix, const options *opt,
                        const session *s, const variant *variants,
                        int numVariants) {
  char date[64] = "?";
  time_t now = time(NULL);
  struct tm *utc = gmtime(&now);
  if (utc)
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", utc);
  fprintf(out, "%sgpucg-bench: gpucg kernels against cuBLAS (docs/Benchmark.md)\n",
          prefix);
  fprintf(out, "%sdate: %s\n", prefix, date);
  if (s) {
    char driver[32], runtime[32];
    formatVersion(s->info.driver_version, driver, sizeof driver);
    formatVersion(s->runtime_version, runtime, sizeof runtime);
    fprintf(out,
            "%sgpu: %s, sm_%d%d, %d SMs, %.1f MiB L2, %.1f GiB, device %d\n",
            prefix, s->info.name, s->info.compute_capability_major,
            s->info.compute_capability_minor, s->info.multiprocessor_count,
            s->info.l2_cache_bytes / 1048576.0,
            (double)s->info.total_memory_bytes / 1073741824.0, opt->device);
    fprintf(out,
            "%sdriver: CUDA %s (cuDriverGetVersion %d); runtime: CUDA %s; "
            "cuBLAS %d.%d.%d\n",
            prefix, driver, s->info.driver_version, runtime,
            s->cublas_version / 10000, (s->cublas_version % 10000) / 100,
            s->cublas_version % 100);
  } else {
    fprintf(out, "%sgpu: none (--dry-run: nothing ran, no number below was "
                 "measured)\n",
            prefix);
  }
  fprintf(out, "%scommit: %s\n", prefix, opt->commit ? opt->commit : "(not given)");
  for (int v = 0; v < numVariants; ++v) {
    const bench_manifest *manifest = &variants[v].manifest;
    fprintf(out,
            "%skernels%s%s: %s (chip %s, format %s, compiled %s, gpucg %s, "
            "options %s, sizes %s)\n",
            prefix, variants[v].name[0] ? " " : "", variants[v].name,
            manifest->directory, manifest->chip[0] ? manifest->chip : "?",
            manifest->format[0] ? manifest->format : "?",
            manifest->created[0] ? manifest->created : "?",
            manifest->commit[0] ? manifest->commit : "?",
            manifest->options[0] ? manifest->options : "?",
            manifest->sizes[0] ? manifest->sizes : "static");
  }
  if (opt->dry_run) {
    fprintf(out, "%smethod: --dry-run, no GPU: manifests and .abi files "
                 "checked against the cases\n",
            prefix);
  } else if (opt->check) {
    fprintf(out,
            "%smethod: --check, one run each, every element compared; "
            "seed %" PRIu64 "\n",
            prefix, opt->seed);
  } else {
    char runs[256];
    int used = snprintf(runs, sizeof runs, "%d timed runs per kernel",
                        opt->iterations);
    if (opt->max_seconds > 0 || opt->spread > 0) {
      used = snprintf(runs, sizeof runs,
                      "%d to %d timed runs per kernel in batches of %d, no "
                      "more batches once",
                      opt->min_iterations, opt->iterations, ADAPTIVE_BATCH);
      if (opt->max_seconds > 0 && used > 0 && (size_t)used < sizeof runs)
        used += snprintf(runs + used, sizeof runs - (size_t)used,
                         " they add up to %g s%s", opt->max_seconds,
                         opt->spread > 0 ? " or" : "");
      if (opt->spread > 0 && used > 0 && (size_t)used < sizeof runs)
        snprintf(runs + used, sizeof runs - (size_t)used,
                 " their interquartile range is at most %g of the median",
                 opt->spread);
    }
    fprintf(out,
            "%smethod: %d warm-up + %s, CUDA events, "
            "%s; cuBLAS timed once per case; every element compared; "
            "seed %" PRIu64 "\n",
            prefix, opt->warmup, runs,
            opt->flush ? "L2 flushed (memset) before every run"
                       : "no L2 flush",
            opt->seed);
  }
}

/*===----------------------------------------------------------------------===*/
/* One case                                                                   */
/*===----------------------------------------------------------------------===*/

typedef struct timing {
  int valid;
  int runs; /* timed runs */
  double median, min, max, p25, p75; /* milliseconds */
} timing;

typedef enum case_status {
  CASE_OK = 0,
  CASE_MISMATCH,
  CASE_ERROR,
  CASE_NO_KERNEL,
  CASE_DRY_RUN,
  /* With several variants, one whose manifest does not list the case: the
     variant does not apply to it, and the case gets no row for it. */
  CASE_NOT_IN_VARIANT,
  CASE_STATUS_COUNT
} case_status;

static const char *const caseStatusNames[] = {
    "ok", "MISMATCH", "ERROR", "NO-KERNEL", "DRY-RUN", "NOT-IN-VARIANT"};

/* Whether `v` has nothing to say about the case: see CASE_NOT_IN_VARIANT. */
static int notInVariant(const struct variant *v, int numVariants,
                        const bench_case *c) {
  return numVariants > 1 && !bench_manifest_find(&v->manifest, c->key);
}

/* What one variant's kernels did on one case (cuBLAS's columns are the
   case's, the same in every variant's row). */
typedef struct case_result {
  case_status status;
  error_buffer message;
  int has_kernel;
  timing gpucg, cublas;
  double max_abs_error;
  size_t mismatches;
  int host_checked;
  int registers, static_shared, dynamic_shared, local_bytes;
  int num_launches;
  unsigned grid[3], block[3];
  int context_lost; /* a CUDA error the context does not survive */
  int cublas_unsupported; /* CUBLAS_STATUS_NOT_SUPPORTED for this case */
} case_result;

/* Device buffers and kernels of a case. */
typedef struct case_run {
  const bench_case *c;
  uint64_t a, b, c_gpucg, c_cublas;
  int64_t sizes[3][2];
  gpucg_kernel *kernels[BENCH_MAX_LAUNCHES];
  int num_kernels;
  /* The cuBLASLt matmul of an 8-bit float case, planned once (its first
     run) so that timed runs do not include the algorithm search. */
  cublasLtMatmulDesc_t lt_desc;
  cublasLtMatrixLayout_t lt_layouts[3]; /* W, A, C (and D) */
  cublasLtMatmulAlgo_t lt_algo;
  int lt_planned;
} case_run;

static cudaDataType cudaTypeOf(bench_type type) {
  switch (type) {
  case BENCH_F16:
    return CUDA_R_16F;
  case BENCH_BF16:
    return CUDA_R_16BF;
  case BENCH_F32:
    return CUDA_R_32F;
  case BENCH_I8:
    return CUDA_R_8I;
  case BENCH_F8E4M3FN:
    return CUDA_R_8F_E4M3;
  case BENCH_F8E5M2:
    return CUDA_R_8F_E5M2;
  case BENCH_I32:
  case BENCH_TYPE_COUNT:
    break;
  }
  return CUDA_R_32I;
}

static int isFloat8(bench_type type) {
  return type == BENCH_F8E4M3FN || type == BENCH_F8E5M2;
}

/* Plans the cuBLASLt matmul of an 8-bit float case: CUBLAS_COMPUTE_32F,
   unit scales (no scale pointers), C and D f32. cuBLASLt takes FP8 only in
   its TN form, which is gpucg's `nt`: the row-major C = A * W^T (W N x K)
   is the column-major C^T = op(W) * A^T with W seen as K x N (ld K) and
   transposed, A^T as K x M (ld K). The heuristic's first algorithm;
   CUBLAS_STATUS_NOT_SUPPORTED when there is none (e5m2 x e5m2 has none)
   or the case is not `nt`. */
static cublasStatus_t planCublasLt(const session *s, case_run *run) {
  const bench_case *c = run->c;
  if (!c->transpose_b || c->transpose_a)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  const uint64_t m = (uint64_t)c->m, n = (uint64_t)c->n, k = (uint64_t)c->k;
  const cudaDataType type = cudaTypeOf(c->in);
  const cublasOperation_t transposed = CUBLAS_OP_T, plain = CUBLAS_OP_N;
  cublasLtMatmulPreference_t preference = NULL;
  cublasStatus_t status =
      cublasLtMatmulDescCreate(&run->lt_desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulDescSetAttribute(
        run->lt_desc, CUBLASLT_MATMUL_DESC_TRANSA, &transposed,
        sizeof transposed);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulDescSetAttribute(
        run->lt_desc, CUBLASLT_MATMUL_DESC_TRANSB, &plain, sizeof plain);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatrixLayoutCreate(&run->lt_layouts[0], type, k, n,
                                        (int64_t)k);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatrixLayoutCreate(&run->lt_layouts[1], type, k, m,
                                        (int64_t)k);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatrixLayoutCreate(&run->lt_layouts[2], CUDA_R_32F, n,
                                        m, (int64_t)n);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulPreferenceCreate(&preference);
  const uint64_t workspaceBytes = kLtWorkspaceBytes;
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
        sizeof workspaceBytes);
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulAlgoGetHeuristic(
        s->cublas_lt, run->lt_desc, run->lt_layouts[0], run->lt_layouts[1],
        run->lt_layouts[2], run->lt_layouts[2], preference, 1, &heuristic,
        &found);
  if (preference)
    cublasLtMatmulPreferenceDestroy(preference);
  if (status == CUBLAS_STATUS_SUCCESS && found == 0)
    status = CUBLAS_STATUS_NOT_SUPPORTED;
  if (status != CUBLAS_STATUS_SUCCESS)
    return status;
  run->lt_algo = heuristic.algo;
  run->lt_planned = 1;
  return CUBLAS_STATUS_SUCCESS;
}

static void destroyCublasLtPlan(case_run *run) {
  for (int i = 0; i < 3; ++i)
    if (run->lt_layouts[i])
      cublasLtMatrixLayoutDestroy(run->lt_layouts[i]);
  if (run->lt_desc)
    cublasLtMatmulDescDestroy(run->lt_desc);
}

static cublasStatus_t runCublasLt(const session *s, case_run *run) {
  if (!run->lt_planned) {
    cublasStatus_t status = planCublasLt(s, run);
    if (status != CUBLAS_STATUS_SUCCESS)
      return status;
  }
  const float alpha = 1.0f, beta = 0.0f;
  void *c = (void *)(uintptr_t)run->c_cublas;
  return cublasLtMatmul(s->cublas_lt, run->lt_desc, &alpha,
                        (const void *)(uintptr_t)run->b, run->lt_layouts[0],
                        (const void *)(uintptr_t)run->a, run->lt_layouts[1],
                        &beta, c, run->lt_layouts[2], c, run->lt_layouts[2],
                        &run->lt_algo, (void *)(uintptr_t)s->lt_workspace,
                        kLtWorkspaceBytes, s->stream);
}

/* cuBLAS with the types gpucg uses: f32 accumulation for f16/bf16 -> f32,
   f16 for f16 -> f16, TF32 tensor cores for f32 (gpucg's WMMA TF32), i32 for
   i8; 8-bit floats through cuBLASLt (runCublasLt).

   cuBLAS is column-major: a row-major R x C array (row pitch C) is, to
   cuBLAS, the column-major C x R matrix (its transpose) with leading
   dimension C. The row-major C = op(A) * op(B) (M x N) is therefore the
   column-major C^T = op(B)^T * op(A)^T (N x M, ldc N): cuBLAS's first
   operand is B, its second A, its m, n, k are N, M, K, and each op makes
   cuBLAS see op(B)^T (N x K) and op(A)^T (K x M):
     - B stored K x N (nn, tn): cuBLAS reads the N x K matrix B^T (ld N),
       what it needs: CUBLAS_OP_N, ld N. B stored N x K (nt, tt; op(B) = B^T):
       it reads the K x N matrix B^T (ld K) and needs (B^T)^T = B, N x K,
       its transpose: CUBLAS_OP_T, ld K.
     - A stored M x K (nn, nt): cuBLAS reads the K x M matrix A^T (ld K):
       CUBLAS_OP_N, ld K. A stored K x M (tn, tt; op(A) = A^T):
       it reads the M x K matrix A^T (ld M) and needs (A^T)^T = A, K x M,
       its transpose: CUBLAS_OP_T, ld M.
   So cublasGemmEx(transpose_b ? T : N, transpose_a ? T : N, N, M, K, B,
   transpose_b ? K : N, A, transpose_a ? M : K, C, N): gpucg's nn is
   cuBLAS's NN, nt its TN, tn its NT, tt its TT. */
static cublasStatus_t runCublas(const session *s, case_run *run) {
  const bench_case *c = run->c;
  if (isFloat8(c->in))
    return runCublasLt(s, run);
  union {
    float f;
    int32_t i;
    uint16_t h;
  } alpha, beta;
  memset(&alpha, 0, sizeof alpha);
  memset(&beta, 0, sizeof beta);
  cublasComputeType_t compute;
  switch (c->acc) {
  case BENCH_F16:
    compute = CUBLAS_COMPUTE_16F;
    alpha.h = 0x3C00; /* 1.0 */
    break;
  case BENCH_I32:
    compute = CUBLAS_COMPUTE_32I;
    alpha.i = 1;
    break;
  default:
    compute = c->in == BENCH_F32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                 : CUBLAS_COMPUTE_32F;
    alpha.f = 1.0f;
    break;
  }
  const int m = (int)c->m, n = (int)c->n, k = (int)c->k;
  return cublasGemmEx(s->cublas, c->transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                      c->transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                      &alpha, (const void *)(uintptr_t)run->b,
                      cudaTypeOf(c->in), c->transpose_b ? k : n,
                      (const void *)(uintptr_t)run->a, cudaTypeOf(c->in),
                      c->transpose_a ? m : k, &beta,
                      (void *)(uintptr_t)run->c_cublas, cudaTypeOf(c->acc), n,
                      compute, CUBLAS_GEMM_DEFAULT);
}

static gpucg_status runGpucg(const session *s, const case_run *run) {
  gpucg_argument arguments[3];
  memset(arguments, 0, sizeof arguments);
  const uint64_t pointers[3] = {run->a, run->b, run->c_gpucg};
  for (int i = 0; i < 3; ++i) {
    arguments[i].device_pointer = pointers[i];
    arguments[i].rank = 2;
    arguments[i].sizes = run->sizes[i];
  }
  for (int i = 0; i < run->num_kernels; ++i) {
    gpucg_status status = gpucg_kernel_launch(run->kernels[i], arguments, 3,
                                              (void *)s->stream, NULL);
    if (status != GPUCG_SUCCESS)
      return status;
  }
  return GPUCG_SUCCESS;
}

static int compareDoubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double percentile(const double *sorted, int count, double q) {
  double position = q * (count - 1);
  int low = (int)position;
  int high = low + 1 < count ? low + 1 : low;
  return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
}

/* Fills `t` from the first `count` samples (sorted into `sorted`). */
static void summarize(const float *samples, int count, double *sorted,
                      timing *t) {
  for (int i = 0; i < count; ++i)
    sorted[i] = samples[i];
  qsort(sorted, (size_t)count, sizeof *sorted, compareDoubles);
  t->runs = count;
  t->min = sorted[0];
  t->max = sorted[count - 1];
  t->median = percentile(sorted, count, 0.5);
  t->p25 = percentile(sorted, count, 0.25);
  t->p75 = percentile(sorted, count, 0.75);
  t->valid = 1;
}

/* Whether the timed runs so far may stop: enough of them, and their sum
   over --max-seconds or their spread under --spread. */
static int enoughRuns(const options *opt, const timing *t, double totalMs) {
  if (t->runs < opt->min_iterations)
    return 0;
  if (opt->max_seconds > 0 && totalMs >= 1e3 * opt->max_seconds)
    return 1;
  return opt->spread > 0 && t->median > 0 &&
         (t->p75 - t->p25) <= opt->spread * t->median;
}

/* Times gpucg (which=0) or cuBLAS (which=1): `warmup` runs, then up to
   `iterations` timed ones, each after an L2 flush, with a pair of events
   around the run only. With --max-seconds or --spread the timed runs go in
   batches of ADAPTIVE_BATCH, and stop after the batch that meets either. */
static int timeRuns(session *s, case_run *run, int which, timing *t,
                    error_buffer *error) {
  const options *opt = s->opt;
  const int adaptive = opt->max_seconds > 0 || opt->spread > 0;
  const int batch = adaptive ? ADAPTIVE_BATCH : opt->iterations;
  double *sorted = malloc((size_t)opt->iterations * sizeof *sorted);
  if (!sorted) {
    setError(error, "out of host memory");
    return 0;
  }
  memset(t, 0, sizeof *t);
  double totalMs = 0;
  int done = 0;
  for (int i = -opt->warmup; done < opt->iterations;) {
    int end = i < 0 ? 0 : done + batch;
    if (end > opt->iterations)
      end = opt->iterations;
    for (; i < end; ++i) {
      if (s->flush_bytes)
        TRY_CUDA(error, cudaMemsetAsync((void *)(uintptr_t)s->flush_buffer,
                                        (int)(s->flush_counter++ & 0xFF),
                                        s->flush_bytes, s->stream));
      if (i >= 0)
        TRY_CUDA(error, cudaEventRecord(s->start[i], s->stream));
      if (which == 0)
        TRY_GPUCG(error, runGpucg(s, run));
      else
        TRY_CUBLAS(error, runCublas(s, run));
      if (i >= 0)
        TRY_CUDA(error, cudaEventRecord(s->stop[i], s->stream));
    }
    if (end == 0)
      continue; /* the warm-up runs */
    TRY_CUDA(error, cudaEventSynchronize(s->stop[end - 1]));
    for (; done < end; ++done) {
      TRY_CUDA(error, cudaEventElapsedTime(&s->samples[done], s->start[done],
                                           s->stop[done]));
      totalMs += s->samples[done];
    }
    summarize(s->samples, done, sorted, t);
    if (adaptive && enoughRuns(opt, t, totalMs))
      break;
  }
  free(sorted);
  return 1;
done:
  t->valid = 0;
  free(sorted);
  return 0;
}

/* Checks that an .abi file describes this case: three memref (or
   tensor-map) arguments of the case's types and shapes (a dynamic size, `?`,
   takes the case's, which the launch passes). */
static int checkAbi(const char *path, const gpucg_abi *abi,
                    const bench_case *c, const int64_t sizes[3][2],
                    error_buffer *error) {
  const bench_type types[3] = {c->in, c->in, c->acc};
  for (int j = 0; j < abi->num_arguments; ++j) {
    const gpucg_abi_argument *argument = &abi->arguments[j];
    int index = argument->function_argument;
    /* A and B may reach the kernel as TMA tensor maps on them. */
    if ((argument->kind != GPUCG_ABI_ARGUMENT_MEMREF &&
         argument->kind != GPUCG_ABI_ARGUMENT_TENSOR_MAP) ||
        index < 0 || index > 2 || argument->rank != 2 ||
        strcmp(argument->element_type, bench_type_name(types[index])) != 0 ||
        (argument->shape[0] >= 0 && argument->shape[0] != sizes[index][0]) ||
        (argument->shape[1] >= 0 && argument->shape[1] != sizes[index][1])) {
      setError(error,
               "%s: argument %d (function argument %d, %s) does not match "
               "the case %s",
               path, j, index, argument->element_type, c->key);
      return 0;
    }
  }
  return 1;
}

/* Loads one variant's kernels for the case and checks their ABI. */
static int loadKernels(const bench_manifest *manifest,
                       const bench_manifest_entry *entry, case_run *run,
                       case_result *r) {
  char path[8192];
  for (int i = 0; i < entry->num_launches; ++i) {
    snprintf(path, sizeof path, "%s/%s", manifest->directory, entry->abi[i]);
    TRY_GPUCG(&r->message, gpucg_kernel_load(path, &run->kernels[i]));
    ++run->num_kernels;
    const gpucg_abi *abi = gpucg_kernel_get_abi(run->kernels[i]);
    if (!checkAbi(path, abi, run->c, (const int64_t(*)[2])run->sizes,
                  &r->message))
      goto done;
    gpucg_kernel_attributes attributes;
    TRY_GPUCG(&r->message,
              gpucg_kernel_get_attributes(run->kernels[i], &attributes));
    /* The row shows the heaviest kernel's registers and shared memory. */
    if (attributes.registers_per_thread > r->registers) {
      r->registers = attributes.registers_per_thread;
      r->local_bytes = attributes.local_bytes_per_thread;
    }
    if (attributes.static_shared_bytes + attributes.dynamic_shared_bytes >
        r->static_shared + r->dynamic_shared) {
      r->static_shared = attributes.static_shared_bytes;
      r->dynamic_shared = attributes.dynamic_shared_bytes;
    }
    if (i == 0) {
      for (int d = 0; d < 3; ++d) {
        r->block[d] = abi->block[d];
        r->grid[d] = abi->grid[d].kind == GPUCG_ABI_EXTENT_CONSTANT
                         ? (unsigned)abi->grid[d].value
                         : 0;
      }
    }
  }
  r->num_launches = run->num_kernels;
  return 1;
done:
  return 0;
}

static void unloadKernels(case_run *run) {
  for (int i = 0; i < run->num_kernels; ++i)
    gpucg_kernel_unload(run->kernels[i]);
  run->num_kernels = 0;
}

/* Fills A and B on the host, uploads them, and returns the integer values
   (for the host reference) or NULL when the case is too large for it. */
static int uploadInputs(const session *s, case_run *run, int8_t **hostA,
                        int8_t **hostB, error_buffer *error) {
  const bench_case *c = run->c;
  const size_t countA = (size_t)c->m * (size_t)c->k;
  const size_t countB = (size_t)c->k * (size_t)c->n;
  const size_t elementSize = bench_type_size(c->in);
  const int range = bench_case_value_range(c);
  int8_t *values = NULL;
  void *encoded = NULL;
  int ok = 0;
  for (int which = 0; which < 2; ++which) {
    size_t count = which == 0 ? countA : countB;
    values = malloc(count);
    encoded = malloc(count * elementSize);
    if (!values || !encoded) {
      setError(error, "out of host memory for %zu elements of %c", count,
               which == 0 ? 'A' : 'B');
      goto done;
    }
    bench_fill_values(values, count, s->opt->seed, c->key,
                      which == 0 ? 'A' : 'B', range);
    bench_encode(values, count, c->in, encoded);
    TRY_GPUCG(error, gpucg_copy_to_device(which == 0 ? run->a : run->b,
                                          encoded, count * elementSize));
    free(encoded);
    encoded = NULL;
    *(which == 0 ? hostA : hostB) = values;
    values = NULL;
  }
  /* A copy from pageable memory may return before its DMA lands. */
  TRY_GPUCG(error, gpucg_synchronize());
  ok = 1;
done:
  free(values);
  free(encoded);
  return ok;
}

static void appendMessage(error_buffer *message, const char *format, ...) {
  size_t used = strlen(message->text);
  if (used + 3 >= sizeof message->text)
    return;
  if (used) {
    memcpy(message->text + used, "; ", 3);
    used += 2;
  }
  va_list args;
  va_start(args, format);
  vsnprintf(message->text + used, sizeof message->text - used, format, args);
  va_end(args);
}

/* Runs cuBLAS once: 1 when it takes the case, 0 when it answers
   CUBLAS_STATUS_NOT_SUPPORTED (noted in the message), -1 on another error. */
static int probeCublas(session *s, case_run *run, int *unsupported,
                       error_buffer *message) {
  cublasStatus_t status = runCublas(s, run);
  if (status == CUBLAS_STATUS_SUCCESS)
    return 1;
  const char *call =
      isFloat8(run->c->in) ? "cublasLtMatmul" : "cublasGemmEx";
  if (status == CUBLAS_STATUS_NOT_SUPPORTED) {
    *unsupported = 1;
    appendMessage(message,
                  "cuBLAS does not support this case (%s: "
                  "CUBLAS_STATUS_NOT_SUPPORTED): no cuBLAS column, checked "
                  "against the host reference only",
                  call);
    return 0;
  }
  appendMessage(message, "%s: %s (%s)", call, cublasGetStatusName(status),
                cublasGetStatusString(status));
  return -1;
}

static void describeMismatches(const char *what, const bench_comparison *cmp,
                               const bench_case *c, const void *got,
                               const void *other, const double *exact,
                               error_buffer *message) {
  size_t used = strlen(message->text);
  int written = snprintf(message->text + used, sizeof message->text - used,
                         "%s%s: %zu elements differ, max |error| %g;",
                         used ? "; " : "", what, cmp->mismatches,
                         cmp->max_abs_error);
  for (int i = 0; i < cmp->num_first && written > 0; ++i) {
    used = strlen(message->text);
    size_t index = cmp->first_index[i];
    written = snprintf(message->text + used, sizeof message->text - used,
                       " C[%zu][%zu] = %g, expected %g;",
                       index / (size_t)c->n, index % (size_t)c->n,
                       bench_decode(got, c->acc, index),
                       exact ? exact[index] : bench_decode(other, c->acc, index));
  }
}

static void mergeComparison(case_result *r, const bench_comparison *cmp) {
  if (cmp->max_abs_error > r->max_abs_error)
    r->max_abs_error = cmp->max_abs_error;
  if (cmp->mismatches > r->mismatches)
    r->mismatches = cmp->mismatches;
}

/* What a case shares between its variants: the inputs, cuBLAS's result
   (checked against the host reference where there is one) and timing. */
typedef struct case_baseline {
  int8_t *host_a, *host_b;
  double *reference;  /* NULL above --host-check */
  /* Without cuBLAS and above --host-check: the host reference of a few
     rows (bench_sample_rows), row r of sample_reference being C's row
     sample_rows[r]. */
  size_t sample_rows[64];
  size_t sample_count;
  double *sample_reference;
  void *host_cublas;  /* cuBLAS's C; NULL when cuBLAS does not take it */
  void *host_gpucg;   /* room for a variant's C */
  int cublas_unsupported;
  timing cublas;
  error_buffer message; /* notes for every row (cuBLAS unsupported) */
} case_baseline;

/* Runs cuBLAS once into a C pre-filled with a byte pattern no result can
   have and compares it with the host reference. */
static int checkCublas(session *s, case_run *run, case_baseline *base,
                       error_buffer *error) {
  const bench_case *c = run->c;
  const size_t count = (size_t)c->m * (size_t)c->n;
  const size_t bytes = count * bench_type_size(c->acc);
  TRY_CUDA(error, cudaMemsetAsync((void *)(uintptr_t)run->c_cublas, 0x7F,
                                  bytes, s->stream));
  TRY_CUBLAS(error, runCublas(s, run));
  TRY_CUDA(error, cudaStreamSynchronize(s->stream));
  TRY_GPUCG(error, gpucg_copy_to_host(base->host_cublas, run->c_cublas, bytes));
  if (base->reference) {
    bench_comparison cmp;
    bench_compare(base->host_cublas, NULL, base->reference, c->acc, count,
                  &cmp);
    if (cmp.mismatches) {
      describeMismatches("cuBLAS vs host (the reference itself is off)", &cmp,
                         c, base->host_cublas, NULL, base->reference, error);
      return 0;
    }
  }
  return 1;
done:
  return 0;
}

/* Runs the variant's kernels once into a pre-filled C and compares every
   element with cuBLAS's and the host reference. */
static int checkGpucg(session *s, case_run *run, const case_baseline *base,
                      case_result *r) {
  const bench_case *c = run->c;
  if (!base->host_cublas && !base->reference && !base->sample_reference) {
    appendMessage(&r->message, "no reference to check against (the case is "
                               "over --host-check)");
    return 0;
  }
  const size_t count = (size_t)c->m * (size_t)c->n;
  const size_t bytes = count * bench_type_size(c->acc);
  bench_comparison cmp;
  TRY_CUDA(&r->message, cudaMemsetAsync((void *)(uintptr_t)run->c_gpucg, 0x7F,
                                        bytes, s->stream));
  TRY_GPUCG(&r->message, runGpucg(s, run));
  TRY_CUDA(&r->message, cudaStreamSynchronize(s->stream));
  TRY_GPUCG(&r->message,
            gpucg_copy_to_host(base->host_gpucg, run->c_gpucg, bytes));
  if (base->host_cublas) {
    bench_compare(base->host_gpucg, base->host_cublas, NULL, c->acc, count,
                  &cmp);
    mergeComparison(r, &cmp);
    if (cmp.mismatches)
      describeMismatches("gpucg vs cuBLAS", &cmp, c, base->host_gpucg,
                         base->host_cublas, NULL, &r->message);
  }
  if (base->reference) {
    r->host_checked = 1;
    bench_compare(base->host_gpucg, NULL, base->reference, c->acc, count, &cmp);
    mergeComparison(r, &cmp);
    if (cmp.mismatches)
      describeMismatches("gpucg vs host", &cmp, c, base->host_gpucg, NULL,
                         base->reference, &r->message);
  }
  if (base->sample_reference) {
    /* Row by row: each comparison's indices are within its row, so the
       message is given whole-matrix indices by offsetting them. */
    const size_t n = (size_t)c->n, size = bench_type_size(c->acc);
    r->host_checked = 2;
    for (size_t i = 0; i < base->sample_count; ++i) {
      const size_t row = base->sample_rows[i];
      bench_compare((const char *)base->host_gpucg + row * n * size, NULL,
                    base->sample_reference + i * n, c->acc, n, &cmp);
      if (!cmp.mismatches)
        continue;
      mergeComparison(r, &cmp);
      for (int f = 0; f < cmp.num_first; ++f)
        cmp.first_index[f] += row * n;
      describeMismatches("gpucg vs host (sampled rows)", &cmp, c,
                         base->host_gpucg, NULL,
                         base->sample_reference + i * n - row * n,
                         &r->message);
      break;
    }
  }
  if (r->mismatches)
    r->status = CASE_MISMATCH;
  return 1;
done:
  return 0;
}

/* The last timed run's C must still be right (a race shows here). */
static int recheckAfterTiming(session *s, case_run *run,
                              const case_baseline *base, case_result *r) {
  const bench_case *c = run->c;
  const size_t count = (size_t)c->m * (size_t)c->n;
  const size_t bytes = count * bench_type_size(c->acc);
  TRY_CUDA(&r->message, cudaStreamSynchronize(s->stream));
  TRY_GPUCG(&r->message,
            gpucg_copy_to_host(base->host_gpucg, run->c_gpucg, bytes));
  bench_comparison cmp;
  bench_compare(base->host_gpucg, base->host_cublas, NULL, c->acc, count,
                &cmp);
  if (cmp.mismatches) {
    mergeComparison(r, &cmp);
    describeMismatches("after timing, gpucg vs cuBLAS", &cmp, c,
                       base->host_gpucg, base->host_cublas, NULL, &r->message);
    r->status = CASE_MISMATCH;
  }
  return 1;
done:
  return 0;
}

/* Whether the context is still usable after an error of this case. */
static int contextAlive(void) {
  cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess)
    return 1;
  return 0;
}

/* One variant on a case whose inputs and baseline are ready. */
static void runVariant(session *s, case_run *run, const variant *v,
                       int numVariants, const case_baseline *base,
                       case_result *r) {
  const bench_case *c = run->c;
  if (notInVariant(v, numVariants, c)) {
    r->status = CASE_NOT_IN_VARIANT;
    return;
  }
  const bench_manifest_entry *entry = bench_manifest_find(&v->manifest, c->key);
  r->has_kernel = entry && entry->state == BENCH_KERNEL_OK;
  r->cublas = base->cublas;
  r->cublas_unsupported = base->cublas_unsupported;
  if (base->message.text[0])
    appendMessage(&r->message, "%s", base->message.text);
  if (!r->has_kernel) {
    r->status = CASE_NO_KERNEL;
    appendMessage(&r->message, "%s",
                  entry ? "compile_kernels.py could not compile it (its log "
                          "is in the kernels directory's logs/)"
                        : "not in the kernel manifest (run "
                          "bench/compile_kernels.py on this shapes file)");
    return;
  }
  if (!loadKernels(&v->manifest, entry, run, r) ||
      !checkGpucg(s, run, base, r))
    goto done;
  if (!s->opt->check) {
    if (!timeRuns(s, run, 0, &r->gpucg, &r->message))
      goto done;
    if (r->status == CASE_OK && base->host_cublas &&
        !recheckAfterTiming(s, run, base, r))
      goto done;
  }
  goto cleanup;
done:
  r->status = CASE_ERROR;
  r->context_lost = !contextAlive();
cleanup:
  /* Nothing of the variant may still run when its kernels go. */
  cudaStreamSynchronize(s->stream);
  unloadKernels(run);
}

/* Runs a case: inputs, cuBLAS (checked, timed once), then each variant.
   Fills results[0 .. numVariants). */
static void runCase(session *s, const bench_case *c, const variant *variants,
                    int numVariants, case_result *results) {
  for (int v = 0; v < numVariants; ++v)
    memset(&results[v], 0, sizeof results[v]);
  case_run run;
  memset(&run, 0, sizeof run);
  run.c = c;
  bench_case_operand_shapes(c, run.sizes);
  case_baseline base;
  memset(&base, 0, sizeof base);
  error_buffer error = {{0}};

  /* Under --check a case no variant has a kernel for needs nothing more. */
  int anyKernel = 0;
  for (int v = 0; v < numVariants; ++v) {
    const bench_manifest_entry *entry =
        bench_manifest_find(&variants[v].manifest, c->key);
    anyKernel |= entry && entry->state == BENCH_KERNEL_OK;
  }

  const size_t countC = (size_t)c->m * (size_t)c->n;
  const size_t bytesC = countC * bench_type_size(c->acc);
  const size_t inSize = bench_type_size(c->in);
  if (anyKernel || !s->opt->check) {
    TRY_GPUCG(&error, gpucg_malloc(&run.a, (size_t)c->m * (size_t)c->k * inSize));
    TRY_GPUCG(&error, gpucg_malloc(&run.b, (size_t)c->k * (size_t)c->n * inSize));
    TRY_GPUCG(&error, gpucg_malloc(&run.c_cublas, bytesC));
    if (anyKernel)
      TRY_GPUCG(&error, gpucg_malloc(&run.c_gpucg, bytesC));
    if (!uploadInputs(s, &run, &base.host_a, &base.host_b, &error))
      goto done;
    int probed = probeCublas(s, &run, &base.cublas_unsupported, &base.message);
    if (probed < 0) {
      setError(&error, "%s", base.message.text);
      goto done;
    }
  }
  if (anyKernel) {
    if ((double)c->m * (double)c->n * (double)c->k <=
        s->opt->host_check_limit) {
      base.reference = malloc(countC * sizeof *base.reference);
      if (!base.reference) {
        setError(&error, "out of host memory for the reference");
        goto done;
      }
      bench_host_reference(c, base.host_a, base.host_b, base.reference);
    } else if (base.cublas_unsupported && s->opt->host_check_limit > 0) {
      /* Nothing else checks it: a few rows on the host, within the same
         limit of work. */
      base.sample_count = bench_sample_rows(
          c, s->opt->host_check_limit, base.sample_rows,
          sizeof base.sample_rows / sizeof base.sample_rows[0]);
      base.sample_reference =
          malloc(base.sample_count * (size_t)c->n * sizeof(double));
      if (!base.sample_reference) {
        setError(&error, "out of host memory for the reference");
        goto done;
      }
      bench_host_reference_rows(c, base.host_a, base.host_b, base.sample_rows,
                                base.sample_count, base.sample_reference);
    }
    base.host_gpucg = malloc(bytesC);
    if (!base.cublas_unsupported)
      base.host_cublas = malloc(bytesC);
    if (!base.host_gpucg || (!base.cublas_unsupported && !base.host_cublas)) {
      setError(&error, "out of host memory for C");
      goto done;
    }
    if (base.host_cublas && !checkCublas(s, &run, &base, &error))
      goto done;
  }
  free(base.host_a);
  free(base.host_b);
  base.host_a = base.host_b = NULL;
  if (!s->opt->check && !base.cublas_unsupported &&
      !timeRuns(s, &run, 1, &base.cublas, &error))
    goto done;

  for (int v = 0; v < numVariants; ++v) {
    runVariant(s, &run, &variants[v], numVariants, &base, &results[v]);
    if (results[v].context_lost) {
      for (int w = v + 1; w < numVariants; ++w) {
        if (notInVariant(&variants[w], numVariants, c))
          continue;
        results[w].status = CASE_ERROR;
        setError(&results[w].message, "not run: the CUDA context was lost");
        results[w].context_lost = 1;
      }
      break;
    }
  }
  goto cleanup;

done:
  /* What every variant shares failed: each row says so. */
  {
    int lost = !contextAlive();
    for (int v = 0; v < numVariants; ++v) {
      if (notInVariant(&variants[v], numVariants, c)) {
        results[v].status = CASE_NOT_IN_VARIANT;
        continue;
      }
      results[v].status = CASE_ERROR;
      results[v].message = error;
      results[v].context_lost = lost;
      results[v].cublas_unsupported = base.cublas_unsupported;
    }
  }
cleanup:
  /* Nothing of the case may still run when its buffers go. */
  cudaStreamSynchronize(s->stream);
  free(base.host_a);
  free(base.host_b);
  free(base.reference);
  free(base.sample_reference);
  free(base.host_gpucg);
  free(base.host_cublas);
  const uint64_t buffers[4] = {run.a, run.b, run.c_gpucg, run.c_cublas};
  for (int i = 0; i < 4; ++i)
    if (buffers[i])
      gpucg_free(buffers[i]);
  destroyCublasLtPlan(&run);
}

/*===----------------------------------------------------------------------===*/
/* --dry-run                                                                  */
/*===----------------------------------------------------------------------===*/

/* What a run would load, checked without a GPU: each launch's .abi file
   parses and describes the case, and its binary is there. */
static void dryRunVariant(const bench_case *c, const variant *v,
                          int numVariants, case_result *r) {
  memset(r, 0, sizeof *r);
  if (notInVariant(v, numVariants, c)) {
    r->status = CASE_NOT_IN_VARIANT;
    return;
  }
  const bench_manifest_entry *entry = bench_manifest_find(&v->manifest, c->key);
  r->has_kernel = entry && entry->state == BENCH_KERNEL_OK;
  if (!r->has_kernel) {
    r->status = CASE_NO_KERNEL;
    setError(&r->message, "%s",
             entry ? "compile_kernels.py could not compile it"
                   : "not in the kernel manifest");
    return;
  }
  int64_t sizes[3][2];
  bench_case_operand_shapes(c, sizes);
  char path[8192];
  r->status = CASE_DRY_RUN;
  for (int i = 0; i < entry->num_launches; ++i) {
    snprintf(path, sizeof path, "%s/%s", v->manifest.directory, entry->abi[i]);
    gpucg_abi *abi = NULL;
    if (gpucg_abi_read(path, &abi) != GPUCG_SUCCESS) {
      setError(&r->message, "%s", gpucg_last_error());
      r->status = CASE_ERROR;
      return;
    }
    /* The binary's name is relative to the .abi file's folder. */
    char binary[8192];
    const char *slash = strrchr(path, '/');
    snprintf(binary, sizeof binary, "%.*s%s",
             slash ? (int)(slash - path + 1) : 0, path, abi->binary);
    FILE *file = fopen(binary, "rb");
    int ok = checkAbi(path, abi, c, (const int64_t(*)[2])sizes, &r->message);
    if (ok && !file) {
      setError(&r->message, "%s: its binary %s is missing", path, binary);
      ok = 0;
    }
    if (file)
      fclose(file);
    if (ok && i == 0)
      for (int d = 0; d < 3; ++d) {
        r->block[d] = abi->block[d];
        r->grid[d] = abi->grid[d].kind == GPUCG_ABI_EXTENT_CONSTANT
                         ? (unsigned)abi->grid[d].value
                         : 0;
      }
    gpucg_abi_destroy(abi);
    if (!ok) {
      r->status = CASE_ERROR;
      return;
    }
  }
}

/*===----------------------------------------------------------------------===*/
/* Output                                                                     */
/*===----------------------------------------------------------------------===*/

static double tflops(const bench_case *c, const timing *t) {
  return t->valid && t->median > 0 ? bench_case_flops(c) / (t->median * 1e9)
                                   : 0.0;
}

static void formatTflops(const bench_case *c, const timing *t, char *buffer,
                         size_t size) {
  if (!t->valid) {
    snprintf(buffer, size, "-");
    return;
  }
  /* The spread: the interquartile range relative to the median. */
  snprintf(buffer, size, "%.2f (%.1f%%)", tflops(c, t),
           t->median > 0 ? 100.0 * (t->p75 - t->p25) / t->median : 0.0);
}

static void formatError(const case_result *r, char *buffer, size_t size) {
  if (!r->has_kernel || r->status == CASE_ERROR || r->status == CASE_DRY_RUN)
    snprintf(buffer, size, "-");
  else
    snprintf(buffer, size, "%g", r->max_abs_error);
}

/* Whether the table and CSV carry a variant column: with several kernels
   directories, or one named explicitly. */
static int showVariants(const variant *variants, int numVariants) {
  return numVariants > 1 || (numVariants == 1 && variants[0].name[0]);
}

static void printTableHeader(const options *opt, int withVariant) {
  if (withVariant)
    printf("%-20s ", "variant");
  if (opt->check || opt->dry_run)
    printf("%-36s %-28s %-9s %8s %10s %4s %5s %7s\n", "case", "name",
           "result", "max_err", "mismatches", "host", "regs", "smem");
  else
    printf("%-36s %-28s %17s %17s %6s %8s %10s %5s %7s %s\n", "case", "name",
           "gpucg TFLOP/s", "cuBLAS TFLOP/s", "ratio", "max_err",
           "mismatches", "regs", "smem", "result");
}

static void printRow(const options *opt, const bench_case *c,
                     const char *variantName, const case_result *r) {
  char error[32], mismatches[32], regs[16], smem[16];
  formatError(r, error, sizeof error);
  if (r->has_kernel && r->status != CASE_ERROR && r->status != CASE_DRY_RUN)
    snprintf(mismatches, sizeof mismatches, "%zu", r->mismatches);
  else
    snprintf(mismatches, sizeof mismatches, "-");
  if (r->num_launches) {
    snprintf(regs, sizeof regs, "%d", r->registers);
    snprintf(smem, sizeof smem, "%d", r->static_shared + r->dynamic_shared);
  } else {
    snprintf(regs, sizeof regs, "-");
    snprintf(smem, sizeof smem, "-");
  }
  const char *name = strcmp(c->name, c->key) ? c->name : "";
  if (variantName)
    printf("%-20s ", variantName);
  if (opt->check || opt->dry_run) {
    printf("%-36s %-28s %-9s %8s %10s %4s %5s %7s\n", c->key, name,
           caseStatusNames[r->status], error, mismatches,
           r->host_checked == 2 ? "rows" : r->host_checked ? "yes" : "no", regs, smem);
  } else {
    char gpucg[32], cublas[32], ratio[16];
    formatTflops(c, &r->gpucg, gpucg, sizeof gpucg);
    formatTflops(c, &r->cublas, cublas, sizeof cublas);
    if (r->gpucg.valid && r->cublas.valid && r->gpucg.median > 0)
      snprintf(ratio, sizeof ratio, "%.3f", r->cublas.median / r->gpucg.median);
    else
      snprintf(ratio, sizeof ratio, "-");
    printf("%-36s %-28s %17s %17s %6s %8s %10s %5s %7s %s\n", c->key, name,
           gpucg, cublas, ratio, error, mismatches, regs, smem,
           caseStatusNames[r->status]);
  }
  if (r->message.text[0])
    printf("    %s: %s\n", c->key, r->message.text);
  fflush(stdout);
}

static void csvString(FILE *out, const char *text) {
  fputc('"', out);
  for (const char *p = text; *p; ++p) {
    if (*p == '"')
      fputc('"', out);
    fputc(*p == '\n' ? ' ' : *p, out);
  }
  fputc('"', out);
}

static void csvTiming(FILE *out, const bench_case *c, const timing *t) {
  if (t->valid)
    fprintf(out, ",%.4f,%.6f,%.6f,%.6f,%.6f,%.6f", tflops(c, t), t->median,
            t->min, t->p25, t->p75, t->max);
  else
    fprintf(out, ",,,,,,");
}

static void csvHeader(FILE *out) {
  fputs("key,name,m,n,k,in_type,acc_type,layout,variant,status,"
        "gpucg_tflops,gpucg_ms_median,gpucg_ms_min,gpucg_ms_p25,gpucg_ms_p75,"
        "gpucg_ms_max,"
        "cublas_tflops,cublas_ms_median,cublas_ms_min,cublas_ms_p25,"
        "cublas_ms_p75,cublas_ms_max,"
        "ratio,max_abs_error,mismatches,host_checked,registers,"
        "static_shared_bytes,dynamic_shared_bytes,local_bytes,launches,grid,"
        "block,gpucg_runs,cublas_runs,message\n",
        out);
}

static void csvRow(FILE *out, const bench_case *c, const char *variantName,
                   const case_result *r) {
  fprintf(out, "%s,%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%s,%s,%s,%s",
          c->key, c->name, c->m, c->n, c->k, bench_type_name(c->in),
          bench_type_name(c->acc), bench_case_layout(c), variantName,
          caseStatusNames[r->status]);
  csvTiming(out, c, &r->gpucg);
  csvTiming(out, c, &r->cublas);
  if (r->gpucg.valid && r->cublas.valid && r->gpucg.median > 0)
    fprintf(out, ",%.4f", r->cublas.median / r->gpucg.median);
  else
    fprintf(out, ",");
  if (r->has_kernel && r->status != CASE_ERROR && r->status != CASE_DRY_RUN)
    fprintf(out, ",%g,%zu", r->max_abs_error, r->mismatches);
  else
    fprintf(out, ",,");
  fprintf(out, ",%d", r->host_checked);
  if (r->num_launches)
    fprintf(out, ",%d,%d,%d,%d,%d", r->registers, r->static_shared,
            r->dynamic_shared, r->local_bytes, r->num_launches);
  else
    fprintf(out, ",,,,,");
  if (r->block[0])
    fprintf(out, ",%ux%ux%u,%ux%ux%u", r->grid[0], r->grid[1], r->grid[2],
            r->block[0], r->block[1], r->block[2]);
  else
    fprintf(out, ",,");
  if (r->gpucg.valid)
    fprintf(out, ",%d", r->gpucg.runs);
  else
    fprintf(out, ",");
  if (r->cublas.valid)
    fprintf(out, ",%d", r->cublas.runs);
  else
    fprintf(out, ",");
  fputc(',', out);
  csvString(out, r->message.text);
  fputc('\n', out);
  fflush(out);
}

/*===----------------------------------------------------------------------===*/
/* Main                                                                       */
/*===----------------------------------------------------------------------===*/

/* sm_XY of the manifest against the device: a cubin for sm_XY loads on X.Y
   and later minors of X, PTX for sm_XY on X.Y and every later chip, which
   the driver's JIT compiles it for (docs/ABI.md). */
static void warnOnChip(const session *s, const bench_manifest *manifest) {
  int major = 0, minor = 0;
  if (sscanf(manifest->chip, "sm_%1d%1d", &major, &minor) != 2)
    return;
  int device = s->info.compute_capability_major * 10 +
               s->info.compute_capability_minor;
  if (strcmp(manifest->format, "ptx") == 0) {
    if (major * 10 + minor > device)
      fprintf(stderr,
              "gpucg-bench: warning: the kernels are PTX for %s, newer than "
              "the GPU (sm_%d); the driver will not load them (compile with "
              "--chip sm_%d)\n",
              manifest->chip, device, device);
    return;
  }
  if (major != s->info.compute_capability_major ||
      minor > s->info.compute_capability_minor)
    fprintf(stderr,
            "gpucg-bench: warning: the kernels are for %s, the GPU is "
            "sm_%d%d; cubins will not load (compile with --chip sm_%d%d)\n",
            manifest->chip, s->info.compute_capability_major,
            s->info.compute_capability_minor,
            s->info.compute_capability_major,
            s->info.compute_capability_minor);
}

/* Runs (or, `s` NULL, dry-runs) every selected case on every variant:
   rows on stdout and in the CSV, a summary line, and the exit status. */
static int runAll(session *s, const options *opt,
                  const bench_case_list *cases, const variant *variants,
                  int numVariants) {
  const double start = nowSeconds();
  FILE *csv = NULL;
  if (opt->csv) {
    csv = fopen(opt->csv, "w");
    if (!csv) {
      fprintf(stderr, "gpucg-bench: cannot write %s\n", opt->csv);
      return EXIT_USAGE;
    }
    printHeader(csv, "# ", opt, s, variants, numVariants);
    csvHeader(csv);
  }
  printHeader(stdout, "# ", opt, s, variants, numVariants);
  const int withVariant = showVariants(variants, numVariants);
  printTableHeader(opt, withVariant);
  int counts[CASE_STATUS_COUNT] = {0}, failedCompile = 0, total = 0;
  int stopped = 0, notRun = 0;
  case_result results[MAX_LIST_OPTION];
  for (int i = 0; i < cases->count; ++i) {
    const bench_case *c = &cases->cases[i];
    if (!isSelected(opt, c))
      continue;
    if (stopped) {
      ++notRun;
      continue;
    }
    if (opt->deadline > 0 && nowSeconds() - start >= opt->deadline) {
      printf("# the deadline (%g s) has passed: no case from %s on is run\n",
             opt->deadline, c->key);
      stopped = 2;
      ++notRun;
      continue;
    }
    if (s) {
      runCase(s, c, variants, numVariants, results);
    } else {
      for (int v = 0; v < numVariants; ++v)
        dryRunVariant(c, &variants[v], numVariants, &results[v]);
    }
    int lost = 0;
    for (int v = 0; v < numVariants; ++v) {
      const case_result *r = &results[v];
      if (r->status == CASE_NOT_IN_VARIANT)
        continue;
      ++total;
      ++counts[r->status];
      if (r->status == CASE_NO_KERNEL &&
          bench_manifest_find(&variants[v].manifest, c->key))
        ++failedCompile;
      printRow(opt, c, withVariant ? variants[v].name : NULL, r);
      if (csv)
        csvRow(csv, c, variants[v].name, r);
      lost |= r->context_lost;
    }
    if (lost) {
      fprintf(stderr,
              "gpucg-bench: the CUDA context did not survive %s's error; "
              "stopping\n",
              c->key);
      stopped = 1;
    }
  }
  if (csv)
    fclose(csv);
  printf("# %d %s: %d ok, %d mismatched, %d errors, %d without a gpucg "
         "kernel (%d failed to compile, %d not in the manifest)",
         total, withVariant ? "rows (case x variant)" : "cases",
         counts[CASE_OK], counts[CASE_MISMATCH], counts[CASE_ERROR],
         counts[CASE_NO_KERNEL], failedCompile,
         counts[CASE_NO_KERNEL] - failedCompile);
  if (counts[CASE_DRY_RUN])
    printf(", %d checked by --dry-run", counts[CASE_DRY_RUN]);
  if (stopped == 1)
    printf("; stopped early, %d cases not run", notRun);
  else if (stopped == 2)
    printf("; %d cases not run (deadline)", notRun);
  printf("\n");
  if (counts[CASE_MISMATCH] || counts[CASE_ERROR] || stopped == 1)
    return EXIT_CASE_FAILED;
  if (opt->check && counts[CASE_NO_KERNEL])
    return EXIT_CASE_FAILED;
  return EXIT_ALL_OK;
}

int main(int argc, char **argv) {
  options opt;
  if (!parseOptions(argc, argv, &opt))
    return EXIT_USAGE;

  bench_case_list cases;
  memset(&cases, 0, sizeof cases);
  variant variants[MAX_LIST_OPTION];
  memset(variants, 0, sizeof variants);
  int exitCode = EXIT_ALL_OK;
  if (!parseVariants(&opt, variants))
    return EXIT_USAGE;

  int errors = 0;
  for (int i = 0; i < opt.num_shapes; ++i)
    errors += bench_read_shapes(opt.shapes[i], &cases, stderr);
  if (errors) {
    fprintf(stderr, "gpucg-bench: %d error%s in the shapes file%s\n", errors,
            errors == 1 ? "" : "s", opt.num_shapes == 1 ? "" : "s");
    exitCode = EXIT_USAGE;
    goto exit;
  }
  int selected = 0;
  for (int i = 0; i < cases.count; ++i)
    selected += isSelected(&opt, &cases.cases[i]);
  if (!opt.device_info && selected == 0) {
    fprintf(stderr, "gpucg-bench: no case selected (%d in the shapes file%s)\n",
            cases.count, opt.num_shapes == 1 ? "" : "s");
    exitCode = EXIT_USAGE;
    goto exit;
  }

  if (opt.list || opt.dry_run) {
    if (readManifests(variants, opt.num_kernels)) {
      exitCode = EXIT_USAGE;
      goto exit;
    }
    if (opt.list)
      listCases(&cases, &opt, variants, opt.num_kernels);
    else
      exitCode = runAll(NULL, &opt, &cases, variants, opt.num_kernels);
    goto exit;
  }

  /* Everything below needs a GPU. */
  session s;
  exitCode = openSession(&s, &opt);
  if (exitCode != EXIT_ALL_OK)
    goto close;
  if (opt.device_info) {
    printHeader(stdout, "", &opt, &s, NULL, 0);
    goto close;
  }
  if (readManifests(variants, opt.num_kernels)) {
    exitCode = EXIT_USAGE;
    goto close;
  }
  for (int v = 0; v < opt.num_kernels; ++v)
    warnOnChip(&s, &variants[v].manifest);
  exitCode = runAll(&s, &opt, &cases, variants, opt.num_kernels);
close:
  closeSession(&s);
exit:
  freeManifests(variants, opt.num_kernels);
  bench_case_list_free(&cases);
  return exitCode;
}
