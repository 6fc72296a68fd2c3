/*===- cases.c - gpucg-bench: cases, kernel manifest, data, reference ------===*\
|*                                                                            *|
|* Everything of gpucg-bench that runs without a GPU (cases.h).               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cases.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===*/
/* Element types                                                              */
/*===----------------------------------------------------------------------===*/

static const char *const typeNames[BENCH_TYPE_COUNT] = {
    "f16", "bf16", "f32", "i8", "i32", "f8E4M3FN", "f8E5M2"};
static const size_t typeSizes[BENCH_TYPE_COUNT] = {2, 2, 4, 1, 4, 1, 1};

const char *bench_type_name(bench_type type) {
  return type < BENCH_TYPE_COUNT ? typeNames[type] : "?";
}

size_t bench_type_size(bench_type type) {
  return type < BENCH_TYPE_COUNT ? typeSizes[type] : 0;
}

static int parseType(const char *text, bench_type *type) {
  for (int i = 0; i < BENCH_TYPE_COUNT; ++i) {
    if (strcmp(text, typeNames[i]) == 0) {
      *type = (bench_type)i;
      return 1;
    }
  }
  return 0;
}

/* The (A/B type, C type) pairs gpucg-bench runs, and what cuBLAS computes
   them with (gpucg_bench.c). */
static int isSupportedPair(bench_type in, bench_type acc) {
  return (in == BENCH_F16 && (acc == BENCH_F32 || acc == BENCH_F16)) ||
         (in == BENCH_BF16 && acc == BENCH_F32) ||
         (in == BENCH_F32 && acc == BENCH_F32) ||
         (in == BENCH_I8 && acc == BENCH_I32) ||
         ((in == BENCH_F8E4M3FN || in == BENCH_F8E5M2) && acc == BENCH_F32);
}

/*===----------------------------------------------------------------------===*/
/* Line reading and tokens                                                    */
/*===----------------------------------------------------------------------===*/

#define LINE_MAX_CHARS 4096
#define MAX_TOKENS 16

/* Reads one line into `buffer` without its newline. Returns 0 at end of file,
   -1 for a line longer than the buffer (the rest is skipped), else 1. */
static int readLine(FILE *file, char *buffer, size_t size) {
  if (!fgets(buffer, (int)size, file))
    return 0;
  size_t length = strlen(buffer);
  if (length > 0 && buffer[length - 1] == '\n') {
    buffer[length - 1] = '\0';
    return 1;
  }
  if (feof(file))
    return 1;
  int ch;
  while ((ch = fgetc(file)) != EOF && ch != '\n')
    ;
  return -1;
}

/* Cuts a `#` comment and splits the rest at blanks in place. Returns the
   number of tokens (which may exceed `max`; only `max` are stored). */
static int tokenize(char *line, char **tokens, int max) {
  char *comment = strchr(line, '#');
  if (comment)
    *comment = '\0';
  int count = 0;
  char *cursor = line;
  for (;;) {
    while (*cursor && isspace((unsigned char)*cursor))
      ++cursor;
    if (!*cursor)
      break;
    char *start = cursor;
    while (*cursor && !isspace((unsigned char)*cursor))
      ++cursor;
    if (*cursor)
      *cursor++ = '\0';
    if (count < max)
      tokens[count] = start;
    ++count;
  }
  return count;
}

/* A decimal dimension in [1, INT32_MAX] (cuBLAS takes int sizes). */
static int parseDimension(const char *text, int64_t *value) {
  if (!*text)
    return 0;
  for (const char *p = text; *p; ++p)
    if (!isdigit((unsigned char)*p))
      return 0;
  errno = 0;
  long long parsed = strtoll(text, NULL, 10);
  if (errno || parsed < 1 || parsed > INT32_MAX)
    return 0;
  *value = parsed;
  return 1;
}

static int isNameChar(int ch) {
  return isalnum(ch) || ch == '_' || ch == '-' || ch == '.' || ch == '+';
}

static int isValidName(const char *text, size_t max) {
  size_t length = strlen(text);
  if (length == 0 || length >= max)
    return 0;
  for (const char *p = text; *p; ++p)
    if (!isNameChar((unsigned char)*p))
      return 0;
  return 1;
}

static char *copyString(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy)
    memcpy(copy, text, length + 1);
  return copy;
}

/*===----------------------------------------------------------------------===*/
/* Shapes file                                                                */
/*===----------------------------------------------------------------------===*/

static int appendCase(bench_case_list *list, const bench_case *c) {
  if (list->count == list->capacity) {
    int capacity = list->capacity ? 2 * list->capacity : 64;
    bench_case *cases = realloc(list->cases, (size_t)capacity * sizeof *cases);
    if (!cases)
      return 0;
    list->cases = cases;
    list->capacity = capacity;
  }
  list->cases[list->count++] = *c;
  return 1;
}

/* The layouts of the 6th field (cases.h): which of A and B is stored
   transposed. Every pair is one, at index 2 * transpose_a + transpose_b. */
static const struct {
  const char *name;
  int transpose_a, transpose_b;
} kLayouts[] = {{"nn", 0, 0}, {"nt", 0, 1}, {"tn", 1, 0}, {"tt", 1, 1}};

const char *bench_case_layout(const bench_case *c) {
  return kLayouts[2 * !!c->transpose_a + !!c->transpose_b].name;
}

void bench_case_operand_shapes(const bench_case *c, int64_t shapes[3][2]) {
  shapes[0][0] = c->transpose_a ? c->k : c->m;
  shapes[0][1] = c->transpose_a ? c->m : c->k;
  shapes[1][0] = c->transpose_b ? c->n : c->k;
  shapes[1][1] = c->transpose_b ? c->k : c->n;
  shapes[2][0] = c->m;
  shapes[2][1] = c->n;
}

static void formatKey(bench_case *c) {
  snprintf(c->key, sizeof c->key, "%s_%s_%s_%" PRId64 "x%" PRId64 "x%" PRId64,
           bench_type_name(c->in), bench_type_name(c->acc),
           bench_case_layout(c), c->m, c->n, c->k);
}

/* Parses the 6th field into c->transpose_a and c->transpose_b. */
static int parseLayout(const char *text, bench_case *c) {
  for (size_t i = 0; i < sizeof kLayouts / sizeof kLayouts[0]; ++i) {
    if (strcmp(text, kLayouts[i].name) == 0) {
      c->transpose_a = kLayouts[i].transpose_a;
      c->transpose_b = kLayouts[i].transpose_b;
      return 1;
    }
  }
  return 0;
}

/* Parses the tokens of one non-empty line into `c`; on error writes the
   message (without location) to `message` and returns 0. */
static int parseCaseLine(char **tokens, int count, bench_case *c,
                         char *message, size_t size) {
  static const char *const dimensionNames[3] = {"M", "N", "K"};
  if (count < 5 || count > 7) {
    snprintf(message, size,
             "expected 5 to 7 fields (M N K in_type acc_type [nn|nt|tn|tt] "
             "[name]), got %d",
             count);
    return 0;
  }
  int64_t *dimensions[3] = {&c->m, &c->n, &c->k};
  for (int i = 0; i < 3; ++i) {
    if (!parseDimension(tokens[i], dimensions[i])) {
      snprintf(message, size,
               "%s must be an integer from 1 to 2147483647, got '%s'",
               dimensionNames[i], tokens[i]);
      return 0;
    }
  }
  if (!parseType(tokens[3], &c->in) || c->in == BENCH_I32) {
    snprintf(message, size,
             "unknown in_type '%s' (expected f16, bf16, f32, i8, f8E4M3FN or "
             "f8E5M2)",
             tokens[3]);
    return 0;
  }
  if (!parseType(tokens[4], &c->acc) || c->acc == BENCH_BF16 ||
      c->acc == BENCH_I8 || c->acc == BENCH_F8E4M3FN ||
      c->acc == BENCH_F8E5M2) {
    snprintf(message, size,
             "unknown acc_type '%s' (expected f32, f16 or i32)", tokens[4]);
    return 0;
  }
  if (!isSupportedPair(c->in, c->acc)) {
    snprintf(message, size,
             "unsupported types %s -> %s (supported: f16 -> f32, f16 -> f16, "
             "bf16 -> f32, f32 -> f32 (TF32), i8 -> i32, f8E4M3FN -> f32, "
             "f8E5M2 -> f32)",
             tokens[3], tokens[4]);
    return 0;
  }
  c->transpose_a = c->transpose_b = 0;
  if (count >= 6 && !parseLayout(tokens[5], c)) {
    snprintf(message, size,
             "the 6th field is the layout, 'nn' (A M x K, B K x N), 'nt' "
             "(A M x K, B N x K), 'tn' (A K x M, B K x N) or 'tt' (A K x M, "
             "B N x K), got '%s'",
             tokens[5]);
    return 0;
  }
  if (c->transpose_a && bench_type_size(c->in) == 1) {
    snprintf(message, size,
             "layout '%s' (A stored K x M) takes f16, bf16 or f32 inputs, "
             "got %s (wgmma and cuBLAS's 8-bit tensor-core GEMMs read 8-bit "
             "operands K-contiguous only)",
             tokens[5], tokens[3]);
    return 0;
  }
  formatKey(c);
  if (count == 7) {
    if (!isValidName(tokens[6], sizeof c->name)) {
      snprintf(message, size,
               "invalid name '%s' (1 to %d characters of A-Z a-z 0-9 _ - . +)",
               tokens[6], (int)sizeof c->name - 1);
      return 0;
    }
    snprintf(c->name, sizeof c->name, "%s", tokens[6]);
  } else {
    snprintf(c->name, sizeof c->name, "%s", c->key);
  }
  return 1;
}

int bench_read_shapes(const char *path, bench_case_list *list, FILE *errors) {
  FILE *file = fopen(path, "r");
  if (!file) {
    fprintf(errors, "%s: error: cannot open the shapes file: %s\n", path,
            strerror(errno));
    return 1;
  }
  char **files = realloc(list->files, (size_t)(list->num_files + 1) *
                                          sizeof *list->files);
  char *fileName = copyString(path);
  if (!files || !fileName) {
    free(fileName);
    if (files)
      list->files = files;
    fclose(file);
    fprintf(errors, "%s: error: out of memory\n", path);
    return 1;
  }
  list->files = files;
  list->files[list->num_files++] = fileName;

  char line[LINE_MAX_CHARS];
  char *tokens[MAX_TOKENS];
  char message[512];
  int lineNumber = 0, numErrors = 0, status;
  while ((status = readLine(file, line, sizeof line)) != 0) {
    ++lineNumber;
    if (status < 0) {
      fprintf(errors, "%s:%d: error: line longer than %d characters\n", path,
              lineNumber, LINE_MAX_CHARS - 2);
      ++numErrors;
      continue;
    }
    int count = tokenize(line, tokens, MAX_TOKENS);
    if (count == 0)
      continue;
    bench_case c;
    memset(&c, 0, sizeof c);
    c.file = fileName;
    c.line = lineNumber;
    if (!parseCaseLine(tokens, count, &c, message, sizeof message)) {
      fprintf(errors, "%s:%d: error: %s\n", path, lineNumber, message);
      ++numErrors;
      continue;
    }
    const bench_case *previous = NULL;
    for (int i = 0; i < list->count && !previous; ++i)
      if (strcmp(list->cases[i].key, c.key) == 0)
        previous = &list->cases[i];
    if (previous) {
      fprintf(errors, "%s:%d: error: duplicate case %s (first at %s:%d)\n",
              path, lineNumber, c.key, previous->file, previous->line);
      ++numErrors;
      continue;
    }
    if (!appendCase(list, &c)) {
      fprintf(errors, "%s:%d: error: out of memory\n", path, lineNumber);
      ++numErrors;
      break;
    }
  }
  if (ferror(file)) {
    fprintf(errors, "%s: error: read error\n", path);
    ++numErrors;
  }
  fclose(file);
  return numErrors;
}

void bench_case_list_free(bench_case_list *list) {
  free(list->cases);
  for (int i = 0; i < list->num_files; ++i)
    free(list->files[i]);
  free(list->files);
  memset(list, 0, sizeof *list);
}

double bench_case_flops(const bench_case *c) {
  return 2.0 * (double)c->m * (double)c->n * (double)c->k;
}

int bench_case_value_range(const bench_case *c) {
  return c->acc == BENCH_F16 ? 1 : 2;
}

void bench_case_function_name(const bench_case *c, char *buffer, size_t size) {
  snprintf(buffer, size, "gemm_%s", c->key);
}

/*===----------------------------------------------------------------------===*/
/* Manifest                                                                   */
/*===----------------------------------------------------------------------===*/

/* A file name inside the kernels directory: no path separators, no "..". */
static int isPlainFileName(const char *text) {
  return *text && !strchr(text, '/') && strcmp(text, ".") != 0 &&
         strcmp(text, "..") != 0;
}

static int parseManifestCase(char **tokens, int count,
                             bench_manifest_entry *entry, char *message,
                             size_t size) {
  if (count < 3) {
    snprintf(message, size,
             "expected 'case KEY ok ABI...' or 'case KEY failed'");
    return 0;
  }
  if (strlen(tokens[1]) >= sizeof entry->key) {
    snprintf(message, size, "case key too long");
    return 0;
  }
  snprintf(entry->key, sizeof entry->key, "%s", tokens[1]);
  if (strcmp(tokens[2], "failed") == 0) {
    if (count != 3) {
      snprintf(message, size, "'case KEY failed' takes no more fields");
      return 0;
    }
    entry->state = BENCH_KERNEL_FAILED;
    return 1;
  }
  if (strcmp(tokens[2], "ok") != 0) {
    snprintf(message, size, "expected 'ok' or 'failed' after the key, got '%s'",
             tokens[2]);
    return 0;
  }
  if (count == 3 || count - 3 > BENCH_MAX_LAUNCHES) {
    snprintf(message, size, "'case KEY ok' needs 1 to %d .abi files",
             BENCH_MAX_LAUNCHES);
    return 0;
  }
  entry->state = BENCH_KERNEL_OK;
  for (int i = 3; i < count; ++i) {
    if (!isPlainFileName(tokens[i])) {
      snprintf(message, size,
               "'%s' is not a file name in the kernels directory", tokens[i]);
      return 0;
    }
    entry->abi[entry->num_launches] = copyString(tokens[i]);
    if (!entry->abi[entry->num_launches]) {
      snprintf(message, size, "out of memory");
      return 0;
    }
    ++entry->num_launches;
  }
  return 1;
}

static void freeEntry(bench_manifest_entry *entry) {
  for (int i = 0; i < entry->num_launches; ++i)
    free(entry->abi[i]);
  entry->num_launches = 0;
}

/* Handles one non-empty manifest line. */
static int parseManifestLine(bench_manifest *manifest, char **tokens,
                             int count, int lineNumber, int *sawVersion,
                             char *message, size_t size) {
  const char *key = tokens[0];
  if (!*sawVersion) {
    if (strcmp(key, "manifest") != 0 || count != 2 ||
        strcmp(tokens[1], "1") != 0) {
      snprintf(message, size, "expected 'manifest 1' first");
      return 0;
    }
    *sawVersion = 1;
    return 1;
  }
  if (strcmp(key, "case") == 0) {
    bench_manifest_entry entry;
    memset(&entry, 0, sizeof entry);
    entry.line = lineNumber;
    if (!parseManifestCase(tokens, count, &entry, message, size)) {
      freeEntry(&entry);
      return 0;
    }
    const bench_manifest_entry *previous =
        bench_manifest_find(manifest, entry.key);
    if (previous) {
      snprintf(message, size, "duplicate case %s (first at line %d)",
               entry.key, previous->line);
      freeEntry(&entry);
      return 0;
    }
    bench_manifest_entry *entries =
        realloc(manifest->entries,
                (size_t)(manifest->count + 1) * sizeof *manifest->entries);
    if (!entries) {
      snprintf(message, size, "out of memory");
      freeEntry(&entry);
      return 0;
    }
    manifest->entries = entries;
    manifest->entries[manifest->count++] = entry;
    return 1;
  }
  if (strcmp(key, "options") == 0) {
    /* The gpucg-compile options the kernels were made with, as words
       (`none` for the defaults); kept, joined by spaces, for the header. */
    if (count < 2) {
      snprintf(message, size, "expected 'options none' or 'options WORD...'");
      return 0;
    }
    size_t used = 0;
    for (int i = 1; i < count; ++i) {
      int written =
          snprintf(manifest->options + used, sizeof manifest->options - used,
                   "%s%s", i > 1 ? " " : "", tokens[i]);
      if (written < 0 || (size_t)written >= sizeof manifest->options - used) {
        snprintf(message, size, "options longer than %zu characters",
                 sizeof manifest->options - 1);
        return 0;
      }
      used += (size_t)written;
    }
    return 1;
  }
  struct {
    const char *name;
    char *value;
    size_t size;
  } fields[] = {
      {"chip", manifest->chip, sizeof manifest->chip},
      {"format", manifest->format, sizeof manifest->format},
      {"commit", manifest->commit, sizeof manifest->commit},
      {"created", manifest->created, sizeof manifest->created},
      {"sizes", manifest->sizes, sizeof manifest->sizes},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
    if (strcmp(key, fields[i].name) != 0)
      continue;
    if (count != 2 || strlen(tokens[1]) >= fields[i].size) {
      snprintf(message, size, "expected '%s VALUE' (one short word)", key);
      return 0;
    }
    snprintf(fields[i].value, fields[i].size, "%s", tokens[1]);
    return 1;
  }
  snprintf(message, size, "unknown line '%s'", key);
  return 0;
}

int bench_read_manifest(const char *directory, bench_manifest *manifest,
                        FILE *errors) {
  memset(manifest, 0, sizeof *manifest);
  snprintf(manifest->directory, sizeof manifest->directory, "%s", directory);
  snprintf(manifest->path, sizeof manifest->path, "%s/%s", directory,
           BENCH_MANIFEST_NAME);
  FILE *file = fopen(manifest->path, "r");
  if (!file) {
    fprintf(errors,
            "%s: error: cannot open the kernel manifest: %s (write it with "
            "bench/compile_kernels.py)\n",
            manifest->path, strerror(errno));
    return 1;
  }
  char line[LINE_MAX_CHARS];
  char *tokens[BENCH_MAX_LAUNCHES + 4];
  const int maxTokens = (int)(sizeof tokens / sizeof tokens[0]);
  char message[512];
  int lineNumber = 0, numErrors = 0, sawVersion = 0, status;
  while ((status = readLine(file, line, sizeof line)) != 0) {
    ++lineNumber;
    if (status < 0) {
      fprintf(errors, "%s:%d: error: line too long\n", manifest->path,
              lineNumber);
      ++numErrors;
      continue;
    }
    int count = tokenize(line, tokens, maxTokens);
    if (count == 0)
      continue;
    if (count > maxTokens) {
      fprintf(errors, "%s:%d: error: too many fields\n", manifest->path,
              lineNumber);
      ++numErrors;
      continue;
    }
    if (!parseManifestLine(manifest, tokens, count, lineNumber, &sawVersion,
                           message, sizeof message)) {
      fprintf(errors, "%s:%d: error: %s\n", manifest->path, lineNumber,
              message);
      ++numErrors;
      if (!sawVersion)
        break;
    }
  }
  if (!sawVersion && numErrors == 0) {
    fprintf(errors, "%s: error: empty manifest (expected 'manifest 1')\n",
            manifest->path);
    ++numErrors;
  }
  fclose(file);
  /* A manifest with errors is not used: nothing of it is kept. */
  if (numErrors)
    bench_manifest_free(manifest);
  return numErrors;
}

void bench_manifest_free(bench_manifest *manifest) {
  for (int i = 0; i < manifest->count; ++i)
    freeEntry(&manifest->entries[i]);
  free(manifest->entries);
  manifest->entries = NULL;
  manifest->count = 0;
}

const bench_manifest_entry *bench_manifest_find(const bench_manifest *manifest,
                                                const char *key) {
  for (int i = 0; i < manifest->count; ++i)
    if (strcmp(manifest->entries[i].key, key) == 0)
      return &manifest->entries[i];
  return NULL;
}

/*===----------------------------------------------------------------------===*/
/* Inputs                                                                     */
/*===----------------------------------------------------------------------===*/

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* FNV-1a of the key: the per-case part of the seed. */
static uint64_t hashKey(const char *key) {
  uint64_t hash = UINT64_C(0xCBF29CE484222325);
  for (const char *p = key; *p; ++p) {
    hash ^= (unsigned char)*p;
    hash *= UINT64_C(0x100000001B3);
  }
  return hash;
}

void bench_fill_values(int8_t *values, size_t count, uint64_t seed,
                       const char *key, int which, int range) {
  uint64_t state = seed ^ hashKey(key) ^ ((uint64_t)which << 56);
  const uint64_t span = 2 * (uint64_t)range + 1;
  for (size_t i = 0; i < count; ++i) {
    /* The high 32 bits, reduced: the bias of `% span` over 2^32 is below
       2^-29, irrelevant to exactness. */
    uint64_t r = splitmix64(&state) >> 32;
    values[i] = (int8_t)((int64_t)(r % span) - range);
  }
}

/* The f16 bits of an integer of magnitude at most 2048 (exact). */
static uint16_t smallIntToF16(int value) {
  if (value == 0)
    return 0;
  uint16_t sign = value < 0 ? 0x8000u : 0;
  unsigned magnitude = (unsigned)(value < 0 ? -value : value);
  int exponent = 0;
  while ((magnitude >> exponent) > 1)
    ++exponent;
  /* magnitude = 1.f * 2^exponent with 10 fraction bits. */
  unsigned fraction = (magnitude << (10 - exponent)) & 0x3FFu;
  return (uint16_t)(sign | (unsigned)((exponent + 15) << 10) | fraction);
}

/* A small integer as an OCP 8-bit float with `mantissaBits` fraction bits
   (3: e4m3, bias 7; 2: e5m2, bias 15). Exact for |v| <= 15 in e4m3 and
   |v| <= 7 in e5m2 (the cases' values are within 2); beyond, the fraction
   is cut. */
static uint8_t smallIntToFloat8(int value, int mantissaBits) {
  if (value == 0)
    return 0;
  unsigned sign = value < 0 ? 0x80u : 0u;
  unsigned magnitude = (unsigned)(value < 0 ? -value : value);
  int exponent = 0;
  while ((magnitude >> exponent) > 1)
    ++exponent;
  int bias = mantissaBits == 3 ? 7 : 15;
  /* magnitude = 1.f * 2^exponent; its fraction bits below the leading one,
     aligned to the mantissa. */
  unsigned fraction = exponent > mantissaBits
                          ? (magnitude >> (exponent - mantissaBits)) &
                                ((1u << mantissaBits) - 1)
                          : (magnitude << (mantissaBits - exponent)) &
                                ((1u << mantissaBits) - 1);
  return (uint8_t)(sign | (unsigned)((exponent + bias) << mantissaBits) |
                   fraction);
}

/* An OCP 8-bit float's value (e4m3: no infinities, S.1111.111 is NaN). */
static double decodeFloat8(uint8_t bits, int mantissaBits) {
  int bias = mantissaBits == 3 ? 7 : 15;
  int exponentMask = mantissaBits == 3 ? 0xF : 0x1F;
  int exponent = (bits >> mantissaBits) & exponentMask;
  int fraction = bits & ((1 << mantissaBits) - 1);
  double value;
  if (mantissaBits == 3 && exponent == 0xF && fraction == 0x7)
    value = NAN;
  else if (mantissaBits == 2 && exponent == 0x1F)
    value = fraction ? NAN : INFINITY;
  else if (exponent == 0)
    value = ldexp(fraction, 1 - bias - mantissaBits);
  else
    value =
        ldexp(fraction + (1 << mantissaBits), exponent - bias - mantissaBits);
  return bits & 0x80 ? -value : value;
}

static uint32_t floatBits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

void bench_encode(const int8_t *values, size_t count, bench_type type,
                  void *out) {
  switch (type) {
  case BENCH_F16: {
    uint16_t table[256];
    for (int v = -128; v < 128; ++v)
      table[(uint8_t)(int8_t)v] = smallIntToF16(v);
    uint16_t *o = out;
    for (size_t i = 0; i < count; ++i)
      o[i] = table[(uint8_t)values[i]];
    break;
  }
  case BENCH_BF16: {
    uint16_t *o = out;
    for (size_t i = 0; i < count; ++i)
      o[i] = (uint16_t)(floatBits((float)values[i]) >> 16);
    break;
  }
  case BENCH_F32: {
    float *o = out;
    for (size_t i = 0; i < count; ++i)
      o[i] = (float)values[i];
    break;
  }
  case BENCH_I8:
    memcpy(out, values, count);
    break;
  case BENCH_I32: {
    int32_t *o = out;
    for (size_t i = 0; i < count; ++i)
      o[i] = values[i];
    break;
  }
  case BENCH_F8E4M3FN:
  case BENCH_F8E5M2: {
    uint8_t *o = out;
    for (size_t i = 0; i < count; ++i)
      o[i] = smallIntToFloat8(values[i], type == BENCH_F8E4M3FN ? 3 : 2);
    break;
  }
  case BENCH_TYPE_COUNT:
    break;
  }
}

static double decodeF16(uint16_t bits) {
  int sign = bits >> 15;
  int exponent = (bits >> 10) & 0x1F;
  int fraction = bits & 0x3FF;
  double value;
  if (exponent == 0)
    value = ldexp(fraction, -24);
  else if (exponent == 31)
    value = fraction ? NAN : INFINITY;
  else
    value = ldexp(fraction + 1024, exponent - 25);
  return sign ? -value : value;
}

double bench_decode(const void *data, bench_type type, size_t index) {
  switch (type) {
  case BENCH_F16:
    return decodeF16(((const uint16_t *)data)[index]);
  case BENCH_BF16: {
    uint32_t bits = (uint32_t)((const uint16_t *)data)[index] << 16;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
  }
  case BENCH_F32:
    return ((const float *)data)[index];
  case BENCH_I8:
    return ((const int8_t *)data)[index];
  case BENCH_I32:
    return ((const int32_t *)data)[index];
  case BENCH_F8E4M3FN:
    return decodeFloat8(((const uint8_t *)data)[index], 3);
  case BENCH_F8E5M2:
    return decodeFloat8(((const uint8_t *)data)[index], 2);
  case BENCH_TYPE_COUNT:
    break;
  }
  return NAN;
}

/*===----------------------------------------------------------------------===*/
/* Reference and comparison                                                   */
/*===----------------------------------------------------------------------===*/

/* Row i of C in 64-bit integers, into `out` (N doubles); `row` is scratch.
   A(i, kk) is a[i * K + kk], or a[kk * M + i] when A is stored K x M. */
static void hostReferenceRow(const bench_case *c, const int8_t *a,
                             const int8_t *b, size_t i, int64_t *row,
                             double *out) {
  const size_t m = (size_t)c->m, n = (size_t)c->n, k = (size_t)c->k;
  memset(row, 0, n * sizeof *row);
  for (size_t kk = 0; kk < k; ++kk) {
    int64_t x = c->transpose_a ? a[kk * m + i] : a[i * k + kk];
    if (x == 0)
      continue;
    if (c->transpose_b) {
      for (size_t j = 0; j < n; ++j)
        row[j] += x * b[j * k + kk];
    } else {
      const int8_t *bRow = b + kk * n;
      for (size_t j = 0; j < n; ++j)
        row[j] += x * bRow[j];
    }
  }
  for (size_t j = 0; j < n; ++j)
    out[j] = (double)row[j];
}

/* Rows rows[0 .. count) of C (rows 0 .. count when `rows` is NULL), row r
   at out + r * N; NaN everywhere when there is no memory for the scratch. */
static void hostReference(const bench_case *c, const int8_t *a,
                          const int8_t *b, const size_t *rows, size_t count,
                          double *out) {
  const size_t n = (size_t)c->n;
  int64_t *row = malloc(n * sizeof *row);
  if (!row) {
    for (size_t i = 0; i < count * n; ++i)
      out[i] = NAN;
    return;
  }
  for (size_t r = 0; r < count; ++r)
    hostReferenceRow(c, a, b, rows ? rows[r] : r, row, out + r * n);
  free(row);
}

void bench_host_reference_rows(const bench_case *c, const int8_t *a,
                               const int8_t *b, const size_t *rows,
                               size_t count, double *out) {
  hostReference(c, a, b, rows, count, out);
}

void bench_host_reference(const bench_case *c, const int8_t *a,
                          const int8_t *b, double *out) {
  hostReference(c, a, b, NULL, (size_t)c->m, out);
}

size_t bench_sample_rows(const bench_case *c, double limit, size_t *rows,
                         size_t capacity) {
  const double rowCost = (double)c->n * (double)c->k;
  size_t count = rowCost > 0 ? (size_t)(limit / rowCost) : capacity;
  if (count < 2)
    count = 2;
  if (count > capacity)
    count = capacity;
  if (count > (size_t)c->m)
    count = (size_t)c->m;
  /* Evenly spread, the first and the last row always among them: the
     first and last tiles are where edges and schedules go wrong. */
  for (size_t r = 0; r < count; ++r)
    rows[r] = count == 1 ? 0 : r * ((size_t)c->m - 1) / (count - 1);
  return count;
}

void bench_compare(const void *got, const void *expected,
                   const double *expected_exact, bench_type type,
                   size_t count, bench_comparison *result) {
  memset(result, 0, sizeof *result);
  for (size_t i = 0; i < count; ++i) {
    double x = bench_decode(got, type, i);
    double y = expected_exact ? expected_exact[i]
                              : bench_decode(expected, type, i);
    if (x == y)
      continue;
    double error = (isnan(x) || isnan(y)) ? INFINITY : fabs(x - y);
    if (error > result->max_abs_error || isnan(result->max_abs_error))
      result->max_abs_error = error;
    if (result->num_first < (int)(sizeof result->first_index /
                                  sizeof result->first_index[0]))
      result->first_index[result->num_first++] = i;
    ++result->mismatches;
  }
}
