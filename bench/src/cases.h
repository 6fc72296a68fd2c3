/*===- cases.h - gpucg-bench: cases, kernel manifest, data, reference ------===*\
|*                                                                            *|
|* The parts of gpucg-bench that need no GPU and no CUDA header: the shapes   *|
|* file and the kernel manifest (formats in docs/Benchmark.md), the seeded    *|
|* small-integer inputs, the host reference and the element-wise comparison.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_BENCH_CASES_H
#define GPUCG_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*===----------------------------------------------------------------------===*/
/* Element types                                                              */
/*===----------------------------------------------------------------------===*/

typedef enum bench_type {
  BENCH_F16 = 0,
  BENCH_BF16,
  BENCH_F32,
  BENCH_I8,
  BENCH_I32,
  BENCH_F8E4M3FN, /* OCP e4m3 (no infinities) */
  BENCH_F8E5M2,   /* OCP e5m2 */
  BENCH_TYPE_COUNT
} bench_type;

/* The MLIR spelling ("f16", "bf16", "f32", "i8", "i32", "f8E4M3FN",
   "f8E5M2"). */
const char *bench_type_name(bench_type type);
/* Bytes per element. */
size_t bench_type_size(bench_type type);

/*===----------------------------------------------------------------------===*/
/* Cases (the shapes file)                                                    */
/*===----------------------------------------------------------------------===*/

#define BENCH_NAME_MAX 96
#define BENCH_KEY_MAX 96

/* One GEMM, C[M,N] = op(A) * op(B), all row-major, in one of four layouts
   (cuBLAS's names: the first letter A's, the second B's):
     `nn`  A is M x K, B is K x N: C = A * B (a weight stored in x out);
     `nt`  A is M x K, B is N x K: C = A * B^T (a PyTorch Linear weight);
     `tn`  A is K x M, B is K x N: C = A^T * B (a weight gradient dY^T X);
     `tt`  A is K x M, B is N x K: C = A^T * B^T (feature-major activations
           times a Linear weight). */
typedef struct bench_case {
  int64_t m, n, k;
  bench_type in;             /* type of A and B */
  bench_type acc;            /* type of C (and of the accumulation) */
  int transpose_a;           /* A stored K x M (`tn`, `tt`) */
  int transpose_b;           /* B stored N x K (`nt`, `tt`) */
  char name[BENCH_NAME_MAX]; /* label; the key when the line gives none */
  char key[BENCH_KEY_MAX];   /* <in>_<acc>_<nn|nt|tn|tt>_<M>x<N>x<K> */
  const char *file;          /* the shapes file (owned by the list) */
  int line;
} bench_case;

typedef struct bench_case_list {
  bench_case *cases;
  int count;
  int capacity;
  char **files; /* names of the files read, owned */
  int num_files;
} bench_case_list;

/* Appends the cases of a shapes file to `list`. Reports every malformed line
   as "FILE:LINE: error: ..." on `errors` and keeps going; returns the number
   of errors (0: all lines were good). A key already in `list` is an error. */
int bench_read_shapes(const char *path, bench_case_list *list, FILE *errors);
void bench_case_list_free(bench_case_list *list);

/* The layout's name: "nn", "nt" or "tn". */
const char *bench_case_layout(const bench_case *c);

/* The stored shapes (rows, columns) of A, B and C, in that order: A M x K
   or K x M, B K x N or N x K, C M x N. What the kernels' ABI must name. */
void bench_case_operand_shapes(const bench_case *c, int64_t shapes[3][2]);

/* 2*M*N*K. */
double bench_case_flops(const bench_case *c);

/* The range [-r, r] the case's inputs are drawn from: 1 for an f16
   accumulator, else 2 (docs/Benchmark.md says why both are exact). */
int bench_case_value_range(const bench_case *c);

/* The host function name compile_kernels.py gives the case: gemm_<key>. */
void bench_case_function_name(const bench_case *c, char *buffer, size_t size);

/*===----------------------------------------------------------------------===*/
/* The kernel manifest (written by bench/compile_kernels.py)                  */
/*===----------------------------------------------------------------------===*/

typedef enum bench_kernel_state {
  BENCH_KERNEL_OK = 0,
  BENCH_KERNEL_FAILED, /* compile_kernels.py could not compile it */
  BENCH_KERNEL_MISSING /* the manifest has no line for the case */
} bench_kernel_state;

#define BENCH_MAX_LAUNCHES 8

typedef struct bench_manifest_entry {
  char key[BENCH_KEY_MAX];
  bench_kernel_state state;
  int num_launches;
  char *abi[BENCH_MAX_LAUNCHES]; /* .abi file names in launch order, owned */
  int line;
} bench_manifest_entry;

typedef struct bench_manifest {
  char path[4096]; /* the manifest file */
  char directory[4096];
  char chip[32];
  char format[16];
  char commit[128];
  char created[64];
  char options[512]; /* gpucg-compile options, "none"; "" in older manifests */
  /* "static", or "dynamic" (kernels compiled with M, N and K `?`, the case's
     sizes passed at launch); "" in older manifests (static). */
  char sizes[16];
  bench_manifest_entry *entries;
  int count;
} bench_manifest;

#define BENCH_MANIFEST_NAME "manifest.txt"

/* Reads DIRECTORY/manifest.txt. Errors are "FILE:LINE: error: ..." on
   `errors`; returns their number (a missing file is one). With errors,
   `manifest` holds no entries (nothing to free). */
int bench_read_manifest(const char *directory, bench_manifest *manifest,
                        FILE *errors);
void bench_manifest_free(bench_manifest *manifest);
/* The entry for `key`, or NULL. */
const bench_manifest_entry *bench_manifest_find(const bench_manifest *manifest,
                                                const char *key);

/*===----------------------------------------------------------------------===*/
/* Inputs, host reference, comparison                                         */
/*===----------------------------------------------------------------------===*/

/* Fills `values[0 .. count)` with integers drawn uniformly from
   [-range, range] by splitmix64 seeded with (seed, key, which): the same
   seed gives the same data for a case whatever else the run selects.
   `which` is 'A' or 'B'. */
void bench_fill_values(int8_t *values, size_t count, uint64_t seed,
                       const char *key, int which, int range);

/* Encodes small integers as `type` elements into `out` (count elements). */
void bench_encode(const int8_t *values, size_t count, bench_type type,
                  void *out);

/* Element `index` of an array of `type` as a double (f16 and bf16 decoded
   exactly, NaN and infinities included). */
double bench_decode(const void *data, bench_type type, size_t index);

/* C = op(A) * op(B) on the host in 64-bit integers, as doubles; `a` and
   `b` hold A and B as stored (bench_case_operand_shapes). */
void bench_host_reference(const bench_case *c, const int8_t *a,
                          const int8_t *b, double *out);

/* Rows rows[0 .. count) of that C, row r at out + r * N. */
void bench_host_reference_rows(const bench_case *c, const int8_t *a,
                               const int8_t *b, const size_t *rows,
                               size_t count, double *out);

/* The rows a case too large for a whole host reference is checked on:
   at least the first and the last, as many evenly spread between them as
   keep rows * N * K within `limit` multiply-adds, at most `capacity` (and
   M). Writes them in increasing order and returns how many. */
size_t bench_sample_rows(const bench_case *c, double limit, size_t *rows,
                         size_t capacity);

typedef struct bench_comparison {
  size_t mismatches;    /* elements that differ (NaN differs from all) */
  double max_abs_error; /* +inf when a NaN is involved */
  size_t first_index[5]; /* the first mismatching elements */
  int num_first;
} bench_comparison;

/* Compares `got` (count elements of `type`) with `expected` of the same type,
   or with the doubles `expected_exact` when that is not NULL. Elements are
   equal when their values are (+0 == -0). */
void bench_compare(const void *got, const void *expected,
                   const double *expected_exact, bench_type type,
                   size_t count, bench_comparison *result);

#endif /* GPUCG_BENCH_CASES_H */
