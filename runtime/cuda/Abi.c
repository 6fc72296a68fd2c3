/*===- Abi.c - Read the kernel ABI files of gpucg-export-kernels ----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* docs/ABI.md describes the format that lib/Conversion/ExportKernels.cpp     *|
|* writes: one `key value...` line per fact, single spaces, in a fixed        *|
|* order, `#` comments. This reader takes exactly that (and blank lines),     *|
|* refuses versions other than 1, and names the file, the line and what is    *|
|* wrong with it.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GPUCG_ABI_VERSION 1
/* CUDA passes at most 32764 bytes of kernel parameters. */
#define GPUCG_ABI_MAX_ARGUMENTS 4096
/* The largest host-function argument number (`function_argument J`,
   `argN`) a file may name. */
#define GPUCG_ABI_MAX_FUNCTION_ARGUMENT 65535
#define GPUCG_ABI_MAX_FIELDS 16

/*===----------------------------------------------------------------------===*/
/* Types                                                                      */
/*===----------------------------------------------------------------------===*/

/* Digits only, at least one; the value fits in int64_t. */
static int parseCount(const char *text, int64_t *value) {
  if (!*text)
    return 0;
  int64_t result = 0;
  for (const char *c = text; *c; ++c) {
    if (*c < '0' || *c > '9')
      return 0;
    int digit = *c - '0';
    if (result > (INT64_MAX - digit) / 10)
      return 0;
    result = result * 10 + digit;
  }
  *value = result;
  return 1;
}

int gpucg_abi_grid_term_count(const gpucg_abi_extent *extent) {
  return 1 + extent->num_size_factors;
}

gpucg_abi_size_factor gpucg_abi_grid_term(const gpucg_abi_extent *extent,
                                          int i) {
  if (i > 0)
    return extent->size_factors[i - 1];
  gpucg_abi_size_factor first;
  first.function_argument = extent->function_argument;
  first.dim = extent->dim;
  first.divisor = extent->kind == GPUCG_ABI_EXTENT_CEILDIV ? extent->value : 1;
  return first;
}

int gpucg_abi_type_bits(const char *type) {
  static const struct {
    const char *name;
    int bits;
  } known[] = {{"index", 64}, {"f16", 16}, {"bf16", 16},
               {"f32", 32},   {"f64", 64}};
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); ++i)
    if (strcmp(type, known[i].name) == 0)
      return known[i].bits;
  /* iN, siN, uiN. */
  const char *digits = NULL;
  if (type[0] == 'i')
    digits = type + 1;
  else if (strncmp(type, "si", 2) == 0 || strncmp(type, "ui", 2) == 0)
    digits = type + 2;
  int64_t bits;
  if (digits && parseCount(digits, &bits) && bits > 0 && bits <= 64)
    return (int)bits;
  /* The 8-, 6- and 4-bit floats: f8E4M3FN, f6E2M3FN, f4E2M1FN, ... */
  if (type[0] == 'f' && (type[1] == '8' || type[1] == '6' || type[1] == '4') &&
      type[2] == 'E')
    return type[1] - '0';
  return 0;
}

/*===----------------------------------------------------------------------===*/
/* The reader                                                                 */
/*===----------------------------------------------------------------------===*/

typedef struct Reader {
  const char *path;
  int line;                            /* 1-based number of `fields` */
  int numFields;                       /* 0 at the end of the file */
  char *fields[GPUCG_ABI_MAX_FIELDS];  /* into `buffer` */
  char *buffer;                        /* the whole file */
  char *next;                          /* the first unread line */
  gpucg_status status;                 /* GPUCG_SUCCESS until an error */
} Reader;

static gpucg_status readerError(Reader *reader, const char *format, ...)
    GPUCG_PRINTF(2, 3);

/* Sets "<path>:<line>: <what>" as the message; returns GPUCG_ERROR_ABI. */
static gpucg_status readerError(Reader *reader, const char *format, ...) {
  char what[1024];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(what, sizeof(what), format, arguments);
  va_end(arguments);
  reader->status =
      gpucg_fail(GPUCG_ERROR_ABI, "%s:%d: %s", reader->path, reader->line,
                 what);
  return reader->status;
}

/* Moves to the next line that is neither blank nor a comment and splits it
   into fields; numFields is 0 at the end of the file. */
static gpucg_status nextLine(Reader *reader) {
  reader->numFields = 0;
  while (reader->next) {
    char *line = reader->next;
    char *end = strchr(line, '\n');
    if (end) {
      *end = '\0';
      reader->next = end + 1;
    } else {
      reader->next = NULL;
      if (!*line)
        break; /* the newline that ends the last line */
    }
    ++reader->line;
    size_t length = strlen(line);
    if (length && line[length - 1] == '\r')
      line[--length] = '\0';
    if (length == 0 || line[0] == '#')
      continue;
    char *field = line;
    for (;;) {
      if (reader->numFields == GPUCG_ABI_MAX_FIELDS)
        return readerError(reader, "more than %d fields",
                           GPUCG_ABI_MAX_FIELDS);
      char *space = strchr(field, ' ');
      if (space)
        *space = '\0';
      if (!*field)
        return readerError(reader, "fields are separated by single spaces");
      reader->fields[reader->numFields++] = field;
      if (!space)
        break;
      field = space + 1;
    }
    return GPUCG_SUCCESS;
  }
  ++reader->line; /* errors at the end name the line after the last one */
  return GPUCG_SUCCESS;
}

/* Reads the next line, which must be `key` with `numValues` values. */
static gpucg_status expectLine(Reader *reader, const char *key,
                               int numValues, const char *spelling) {
  if (nextLine(reader) != GPUCG_SUCCESS)
    return reader->status;
  if (reader->numFields == 0)
    return readerError(reader, "unexpected end of file, expected '%s %s'",
                       key, spelling);
  if (strcmp(reader->fields[0], key) != 0)
    return readerError(reader, "expected '%s %s', found '%s'", key, spelling,
                       reader->fields[0]);
  if (reader->numFields - 1 != numValues)
    return readerError(reader, "'%s' takes %d value%s (%s), found %d", key,
                       numValues, numValues == 1 ? "" : "s", spelling,
                       reader->numFields - 1);
  return GPUCG_SUCCESS;
}

/* A count in [minimum, maximum]; `what` names it in the message. */
static gpucg_status parseBounded(Reader *reader, const char *text,
                                 const char *what, int64_t minimum,
                                 int64_t maximum, int64_t *value) {
  if (!parseCount(text, value))
    return readerError(reader, "%s '%s' is not a number", what, text);
  if (*value < minimum || *value > maximum)
    return readerError(reader, "%s %s is not in [%lld, %lld]", what, text,
                       (long long)minimum, (long long)maximum);
  return GPUCG_SUCCESS;
}

static gpucg_status copyName(Reader *reader, const char *key, char *to,
                             size_t capacity) {
  const char *value = reader->fields[1];
  if (strlen(value) >= capacity)
    return readerError(reader, "'%s' value is longer than %zu characters",
                       key, capacity - 1);
  strcpy(to, value);
  return GPUCG_SUCCESS;
}

/* `argN.dimD`. */
static int parseDimReference(const char *text, gpucg_abi_extent *extent) {
  if (strncmp(text, "arg", 3) != 0)
    return 0;
  const char *dot = strstr(text, ".dim");
  if (!dot)
    return 0;
  char number[32];
  size_t length = (size_t)(dot - (text + 3));
  if (length == 0 || length >= sizeof(number))
    return 0;
  memcpy(number, text + 3, length);
  number[length] = '\0';
  int64_t argument, dim;
  if (!parseCount(number, &argument) || !parseCount(dot + 4, &dim) ||
      argument > GPUCG_ABI_MAX_FUNCTION_ARGUMENT || dim >= GPUCG_ABI_MAX_RANK)
    return 0;
  extent->function_argument = (int)argument;
  extent->dim = (int)dim;
  return 1;
}

static gpucg_status parseGrid(Reader *reader, const char *key,
                              gpucg_abi_extent *extent) {
  static const char spelling[] =
      "N, or up to 3 sizes argN.dimD or ceildiv argN.dimD S joined by *, "
      "optionally * C last";
  if (nextLine(reader) != GPUCG_SUCCESS)
    return reader->status;
  if (reader->numFields == 0)
    return readerError(reader, "unexpected end of file, expected '%s %s'",
                       key, spelling);
  if (strcmp(reader->fields[0], key) != 0)
    return readerError(reader, "expected '%s %s', found '%s'", key, spelling,
                       reader->fields[0]);
  memset(extent, 0, sizeof(*extent));
  extent->factor = 1;
  int numValues = reader->numFields - 1;
  if (numValues == 0)
    return readerError(reader, "'%s' takes %s, found no value", key, spelling);
  if (numValues == 1) {
    const char *value = reader->fields[1];
    if (parseDimReference(value, extent)) {
      extent->kind = GPUCG_ABI_EXTENT_DIM;
      return GPUCG_SUCCESS;
    }
    if (!parseCount(value, &extent->value))
      return readerError(reader, "%s '%s' is not a number, argN.dimD or "
                                 "ceildiv argN.dimD S", key, value);
    if (extent->value < 1 || extent->value > INT32_MAX)
      return readerError(reader, "%s %s is not in [1, %d]", key, value,
                         INT32_MAX);
    extent->kind = GPUCG_ABI_EXTENT_CONSTANT;
    return GPUCG_SUCCESS;
  }
  /* Size terms (argN.dimD or ceildiv argN.dimD S) joined by `*`, then
     optionally `* C`. */
  gpucg_abi_size_factor terms[GPUCG_ABI_MAX_GRID_TERMS];
  int numTerms = 0;
  int field = 1;
  for (;;) {
    int ceildiv = strcmp(reader->fields[field], "ceildiv") == 0;
    int width = ceildiv ? 3 : 1;
    if (field + width > reader->numFields)
      return readerError(reader, "'%s' takes %s, found %d values", key,
                         spelling, numValues);
    const char *size = reader->fields[ceildiv ? field + 1 : field];
    gpucg_abi_extent reference;
    if (!parseDimReference(size, &reference))
      return ceildiv
                 ? readerError(reader, "%s: ceildiv of '%s', not of argN.dimD",
                               key, size)
                 : readerError(reader, "%s: '%s' before '*' is not argN.dimD",
                               key, size);
    if (numTerms == GPUCG_ABI_MAX_GRID_TERMS)
      return readerError(reader, "%s: more than %d run-time sizes", key,
                         GPUCG_ABI_MAX_GRID_TERMS);
    gpucg_abi_size_factor *term = &terms[numTerms++];
    term->function_argument = reference.function_argument;
    term->dim = reference.dim;
    term->divisor = 1;
    if (ceildiv &&
        parseBounded(reader, reader->fields[field + 2], "ceildiv divisor", 1,
                     INT32_MAX, &term->divisor))
      return reader->status;
    field += width;
    if (field == reader->numFields)
      break;
    const char *times = reader->fields[field];
    if (strcmp(times, "*") != 0)
      return readerError(reader, "%s: '%s' after the size, not '*'", key,
                         times);
    if (++field == reader->numFields)
      return readerError(reader, "'%s' takes %s, found %d values", key,
                         spelling, numValues);
    /* The last value, not a size: the constant factor. */
    if (field + 1 == reader->numFields &&
        strcmp(reader->fields[field], "ceildiv") != 0 &&
        !parseDimReference(reader->fields[field], &reference)) {
      if (parseBounded(reader, reader->fields[field], "grid factor", 1,
                       INT32_MAX, &extent->factor))
        return reader->status;
      break;
    }
  }
  int ceildiv = strcmp(reader->fields[1], "ceildiv") == 0;
  extent->kind = ceildiv ? GPUCG_ABI_EXTENT_CEILDIV : GPUCG_ABI_EXTENT_DIM;
  extent->function_argument = terms[0].function_argument;
  extent->dim = terms[0].dim;
  extent->value = ceildiv ? terms[0].divisor : 0;
  extent->num_size_factors = numTerms - 1;
  for (int i = 1; i < numTerms; ++i)
    extent->size_factors[i - 1] = terms[i];
  return GPUCG_SUCCESS;
}

/* `SHAPE` of `memref ELT SHAPE`: sizes joined by `x` (`?` dynamic) or
   `scalar` for rank 0. */
static int parseShape(const char *text, gpucg_abi_argument *argument) {
  argument->rank = 0;
  if (strcmp(text, "scalar") == 0)
    return 1;
  const char *size = text;
  for (;;) {
    const char *end = strchr(size, 'x');
    size_t length = end ? (size_t)(end - size) : strlen(size);
    char number[32];
    if (length == 0 || length >= sizeof(number))
      return 0;
    memcpy(number, size, length);
    number[length] = '\0';
    if (argument->rank == GPUCG_ABI_MAX_RANK)
      return -1;
    int64_t value;
    if (strcmp(number, "?") == 0)
      value = -1;
    else if (!parseCount(number, &value))
      return 0;
    argument->shape[argument->rank++] = value;
    if (!end)
      return 1;
    size = end + 1;
  }
}

/* The TMA limits a tensor map's description must respect (CUDA driver API,
   cuTensorMapEncodeTiled). */
#define GPUCG_TENSOR_MAP_MAX_RANK 5
#define GPUCG_TENSOR_MAP_MAX_BOX 256

/* `tensor_map ELT SHAPE box BOX swizzle S` after `argument I
   function_argument J`: fields 4 to 10. */
static gpucg_status parseTensorMap(Reader *reader, int index,
                                   gpucg_abi_argument *argument) {
  char **f = reader->fields;
  if (reader->numFields != 11 || strcmp(f[7], "box") != 0 ||
      strcmp(f[9], "swizzle") != 0)
    return readerError(reader,
                       "argument %d: expected 'tensor_map ELT SHAPE box BOX "
                       "swizzle S'",
                       index);
  if (strlen(f[5]) >= sizeof(argument->element_type))
    return readerError(reader,
                       "argument %d: type '%s' is longer than %zu "
                       "characters",
                       index, f[5], sizeof(argument->element_type) - 1);
  strcpy(argument->element_type, f[5]);
  argument->element_bits = gpucg_abi_type_bits(f[5]);
  if (argument->element_bits == 0 || argument->element_bits % 8 != 0)
    return readerError(reader,
                       "argument %d: tensor map of '%s' elements; TMA moves "
                       "elements of whole bytes",
                       index, f[5]);
  argument->kind = GPUCG_ABI_ARGUMENT_TENSOR_MAP;
  int shape = parseShape(f[6], argument);
  int rank = argument->rank;
  if (shape <= 0 || rank < 1 || rank > GPUCG_TENSOR_MAP_MAX_RANK)
    return readerError(reader,
                       "argument %d: tensor map shape '%s' is not 1 to %d "
                       "sizes joined by 'x'",
                       index, f[6], GPUCG_TENSOR_MAP_MAX_RANK);
  /* The box, through the shape parser of a scratch argument. */
  gpucg_abi_argument box;
  memset(&box, 0, sizeof(box));
  if (parseShape(f[8], &box) <= 0 || box.rank < 1 || box.rank > rank)
    return readerError(reader,
                       "argument %d: box '%s' is not 1 to %d sizes joined by "
                       "'x'",
                       index, f[8], rank);
  argument->box_rank = box.rank;
  for (int d = 0; d < box.rank; ++d) {
    if (box.shape[d] < 1 || box.shape[d] > GPUCG_TENSOR_MAP_MAX_BOX)
      return readerError(reader,
                         "argument %d: box size %d is %lld; TMA boxes are 1 "
                         "to %d elements",
                         index, d, (long long)box.shape[d],
                         GPUCG_TENSOR_MAP_MAX_BOX);
    argument->box[d] = box.shape[d];
  }
  static const struct {
    const char *name;
    int bytes;
  } swizzles[] = {{"none", 0}, {"32b", 32}, {"64b", 64}, {"128b", 128}};
  argument->swizzle_bytes = -1;
  for (size_t i = 0; i < sizeof(swizzles) / sizeof(swizzles[0]); ++i)
    if (strcmp(f[10], swizzles[i].name) == 0)
      argument->swizzle_bytes = swizzles[i].bytes;
  if (argument->swizzle_bytes < 0)
    return readerError(reader,
                       "argument %d: swizzle '%s' (none, 32b, 64b or 128b)",
                       index, f[10]);
  int64_t rowBytes = argument->box[box.rank - 1] * (argument->element_bits / 8);
  if (rowBytes % 16 != 0)
    return readerError(reader,
                       "argument %d: the box's innermost %lld bytes are not "
                       "a multiple of 16",
                       index, (long long)rowBytes);
  if (argument->swizzle_bytes && rowBytes > argument->swizzle_bytes)
    return readerError(reader,
                       "argument %d: the box's innermost %lld bytes are more "
                       "than the swizzle's %d",
                       index, (long long)rowBytes, argument->swizzle_bytes);
  return GPUCG_SUCCESS;
}

/* `argument I function_argument J TYPE`. */
static gpucg_status parseArgument(Reader *reader, int index, int count,
                                  gpucg_abi_calling_convention convention,
                                  gpucg_abi_argument *argument) {
  if (nextLine(reader) != GPUCG_SUCCESS)
    return reader->status;
  if (reader->numFields == 0)
    return readerError(reader,
                       "unexpected end of file, expected 'argument %d "
                       "function_argument J TYPE' of 'arguments %d'",
                       index, count);
  char **f = reader->fields;
  if (strcmp(f[0], "argument") != 0)
    return readerError(reader,
                       "expected 'argument %d function_argument J TYPE', "
                       "found '%s'",
                       index, f[0]);
  int64_t value;
  if (reader->numFields < 2 || !parseCount(f[1], &value) || value != index)
    return readerError(reader, "expected 'argument %d', found 'argument %s'",
                       index, reader->numFields < 2 ? "" : f[1]);
  if (reader->numFields < 6 || strcmp(f[2], "function_argument") != 0)
    return readerError(reader,
                       "argument %d: expected 'function_argument J' and "
                       "'memref ELT SHAPE' or 'scalar T'",
                       index);
  if (parseBounded(reader, f[3], "function_argument", 0,
                   GPUCG_ABI_MAX_FUNCTION_ARGUMENT, &value))
    return reader->status;
  argument->function_argument = (int)value;
  if (strcmp(f[4], "tensor_map") == 0)
    return parseTensorMap(reader, index, argument);
  int isMemref = strcmp(f[4], "memref") == 0;
  if (!isMemref && strcmp(f[4], "scalar") != 0)
    return readerError(reader,
                       "argument %d: unknown type '%s' (memref ELT SHAPE, "
                       "scalar T or tensor_map ELT SHAPE box BOX swizzle S)",
                       index, f[4]);
  int wanted = isMemref ? 7 : 6;
  if (reader->numFields != wanted)
    return readerError(reader, "argument %d: '%s' takes %s, found %d values",
                       index, f[4], isMemref ? "ELT SHAPE" : "T",
                       reader->numFields - 5);
  if (strlen(f[5]) >= sizeof(argument->element_type))
    return readerError(reader, "argument %d: type '%s' is longer than %zu "
                               "characters",
                       index, f[5], sizeof(argument->element_type) - 1);
  strcpy(argument->element_type, f[5]);
  argument->element_bits = gpucg_abi_type_bits(f[5]);
  if (!isMemref) {
    argument->kind = GPUCG_ABI_ARGUMENT_SCALAR;
    argument->rank = 0;
    if (argument->element_bits == 0)
      return readerError(reader,
                         "argument %d: scalar of type '%s', whose size the "
                         "runtime does not know",
                         index, f[5]);
    return GPUCG_SUCCESS;
  }
  argument->kind = GPUCG_ABI_ARGUMENT_MEMREF;
  int shape = parseShape(f[6], argument);
  if (shape < 0)
    return readerError(reader, "argument %d: shape '%s' has more than %d "
                               "dimensions",
                       index, f[6], GPUCG_ABI_MAX_RANK);
  if (shape == 0)
    return readerError(reader,
                       "argument %d: shape '%s' is not sizes joined by 'x' "
                       "('?' when dynamic) or 'scalar'",
                       index, f[6]);
  if (convention == GPUCG_ABI_BARE_POINTERS)
    for (int d = 0; d < argument->rank; ++d)
      if (argument->shape[d] < 0)
        return readerError(reader,
                           "argument %d: memref %s %s has a dynamic size, "
                           "which calling_convention bare_pointers cannot "
                           "pass",
                           index, f[5], f[6]);
  return GPUCG_SUCCESS;
}

/* A grid size that names a kernel argument's dimension must name a
   dimension that argument has. */
static gpucg_status checkGridReferences(Reader *reader, const gpucg_abi *abi,
                                        const int gridLines[3]) {
  static const char axes[] = "xyz";
  for (int axis = 0; axis < 3; ++axis) {
    const gpucg_abi_extent *extent = &abi->grid[axis];
    if (extent->kind == GPUCG_ABI_EXTENT_CONSTANT)
      continue;
    for (int term = 0; term < gpucg_abi_grid_term_count(extent); ++term) {
      gpucg_abi_size_factor size = gpucg_abi_grid_term(extent, term);
      int function_argument = size.function_argument;
      int dim = size.dim;
      for (int i = 0; i < abi->num_arguments; ++i) {
        const gpucg_abi_argument *argument = &abi->arguments[i];
        if (argument->function_argument != function_argument)
          continue;
        reader->line = gridLines[axis];
        if (argument->kind == GPUCG_ABI_ARGUMENT_SCALAR)
          return readerError(reader,
                             "grid_%c names arg%d.dim%d, but function "
                             "argument %d is scalar %s",
                             axes[axis], function_argument, dim,
                             function_argument, argument->element_type);
        if (dim >= argument->rank)
          return readerError(reader,
                             "grid_%c names arg%d.dim%d, but function "
                             "argument %d has rank %d",
                             axes[axis], function_argument, dim,
                             function_argument, argument->rank);
      }
    }
  }
  return GPUCG_SUCCESS;
}

/* `result J D0 D1 ...`: function argument J, a memref argument of the
   kernel, is an output; each D is a number, argN.dimD or `?`. */
static gpucg_status parseResult(Reader *reader, gpucg_abi *abi) {
  int64_t number;
  if (reader->numFields < 2 ||
      parseBounded(reader, reader->fields[1], "result function argument", 0,
                   GPUCG_ABI_MAX_FUNCTION_ARGUMENT, &number))
    return reader->numFields < 2
               ? readerError(reader, "'result' takes J D0 D1 ..., found "
                                     "no value")
               : reader->status;
  gpucg_abi_argument *argument = NULL;
  for (int i = 0; i < abi->num_arguments; ++i)
    if (abi->arguments[i].function_argument == (int)number &&
        abi->arguments[i].kind == GPUCG_ABI_ARGUMENT_MEMREF)
      argument = &abi->arguments[i];
  if (!argument)
    return readerError(reader,
                       "result %lld is not a memref argument of the kernel",
                       (long long)number);
  if (argument->is_result)
    return readerError(reader, "result %lld is named twice",
                       (long long)number);
  if (reader->numFields - 2 != argument->rank)
    return readerError(reader,
                       "result %lld has %d size(s), its memref rank %d",
                       (long long)number, reader->numFields - 2,
                       argument->rank);
  for (int dim = 0; dim < argument->rank; ++dim) {
    const char *text = reader->fields[2 + dim];
    gpucg_abi_extent *size = &argument->result_shape[dim];
    memset(size, 0, sizeof(*size));
    if (strcmp(text, "?") == 0) {
      size->kind = GPUCG_ABI_EXTENT_UNKNOWN;
    } else if (parseDimReference(text, size)) {
      size->kind = GPUCG_ABI_EXTENT_DIM;
      size->factor = 1;
      const gpucg_abi_argument *source = NULL;
      for (int i = 0; i < abi->num_arguments; ++i)
        if (abi->arguments[i].function_argument == size->function_argument &&
            abi->arguments[i].kind != GPUCG_ABI_ARGUMENT_SCALAR)
          source = &abi->arguments[i];
      if (!source || size->dim >= source->rank)
        return readerError(reader,
                           "result %lld: size %s is not a dimension of a "
                           "memref argument of the kernel",
                           (long long)number, text);
    } else if (parseCount(text, &size->value)) {
      size->kind = GPUCG_ABI_EXTENT_CONSTANT;
      if (argument->shape[dim] >= 0 && argument->shape[dim] != size->value)
        return readerError(reader,
                           "result %lld: size %s of dimension %d, but the "
                           "memref's is %lld",
                           (long long)number, text, dim,
                           (long long)argument->shape[dim]);
    } else {
      return readerError(reader,
                         "result %lld: size '%s' is not a number, argN.dimD "
                         "or ?",
                         (long long)number, text);
    }
  }
  argument->is_result = 1;
  return GPUCG_SUCCESS;
}

static gpucg_status parse(Reader *reader, gpucg_abi *abi) {
  int64_t value;
  if (expectLine(reader, "abi", 1, "VERSION") ||
      parseBounded(reader, reader->fields[1], "abi version", 0, INT_MAX,
                   &value))
    return reader->status;
  if (value != GPUCG_ABI_VERSION)
    return readerError(reader,
                       "unsupported ABI version %lld (this runtime reads "
                       "version %d)",
                       (long long)value, GPUCG_ABI_VERSION);
  abi->version = (int)value;

  if (expectLine(reader, "function", 1, "NAME") ||
      copyName(reader, "function", abi->function, sizeof(abi->function)) ||
      expectLine(reader, "kernel", 1, "NAME") ||
      copyName(reader, "kernel", abi->kernel, sizeof(abi->kernel)) ||
      expectLine(reader, "binary", 1, "FILE") ||
      copyName(reader, "binary", abi->binary, sizeof(abi->binary)))
    return reader->status;
  if (strchr(abi->binary, '/'))
    return readerError(reader,
                       "binary '%s' is not a file name in the .abi's "
                       "directory",
                       abi->binary);

  static const char *formats[] = {"cubin", "ptx", "fatbin", "bc"};
  if (expectLine(reader, "format", 1, "cubin|ptx|fatbin|bc"))
    return reader->status;
  int format = -1;
  for (int i = 0; i < 4; ++i)
    if (strcmp(reader->fields[1], formats[i]) == 0)
      format = i;
  if (format < 0)
    return readerError(reader, "unknown format '%s' (cubin, ptx, fatbin, bc)",
                       reader->fields[1]);
  abi->format = (gpucg_abi_format)format;

  if (expectLine(reader, "chip", 1, "sm_XY") ||
      copyName(reader, "chip", abi->chip, sizeof(abi->chip)))
    return reader->status;
  const char *digits = abi->chip + 3;
  if (strncmp(abi->chip, "sm_", 3) != 0 || digits[0] < '0' ||
      digits[0] > '9' || digits[1] < '0' || digits[1] > '9')
    return readerError(reader, "chip '%s' is not sm_XY", abi->chip);

  if (expectLine(reader, "calling_convention", 1,
                 "bare_pointers|memref_descriptors"))
    return reader->status;
  if (strcmp(reader->fields[1], "bare_pointers") == 0)
    abi->calling_convention = GPUCG_ABI_BARE_POINTERS;
  else if (strcmp(reader->fields[1], "memref_descriptors") == 0)
    abi->calling_convention = GPUCG_ABI_MEMREF_DESCRIPTORS;
  else
    return readerError(reader,
                       "unknown calling convention '%s' (bare_pointers, "
                       "memref_descriptors)",
                       reader->fields[1]);

  static const char *gridKeys[] = {"grid_x", "grid_y", "grid_z"};
  int gridLines[3];
  for (int axis = 0; axis < 3; ++axis) {
    if (parseGrid(reader, gridKeys[axis], &abi->grid[axis]))
      return reader->status;
    gridLines[axis] = reader->line;
  }
  static const char *blockKeys[] = {"block_x", "block_y", "block_z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (expectLine(reader, blockKeys[axis], 1, "N") ||
        parseBounded(reader, reader->fields[1], blockKeys[axis], 1, 1024,
                     &value))
      return reader->status;
    abi->block[axis] = (unsigned)value;
  }
  if (expectLine(reader, "dynamic_shared_memory", 1, "BYTES") ||
      parseBounded(reader, reader->fields[1], "dynamic_shared_memory", 0,
                   INT32_MAX, &value))
    return reader->status;
  abi->dynamic_shared_memory = (size_t)value;

  if (expectLine(reader, "arguments", 1, "N") ||
      parseBounded(reader, reader->fields[1], "arguments", 0,
                   GPUCG_ABI_MAX_ARGUMENTS, &value))
    return reader->status;
  if (value > 0) {
    abi->arguments = calloc((size_t)value, sizeof(gpucg_abi_argument));
    if (!abi->arguments)
      return reader->status = gpucg_fail(
                 GPUCG_ERROR_OUT_OF_MEMORY, "%s: no memory for %lld arguments",
                 reader->path, (long long)value);
  }
  abi->num_arguments = (int)value;
  for (int i = 0; i < abi->num_arguments; ++i)
    if (parseArgument(reader, i, abi->num_arguments, abi->calling_convention,
                      &abi->arguments[i]))
      return reader->status;

  for (;;) {
    if (nextLine(reader))
      return reader->status;
    if (reader->numFields == 0)
      break;
    if (strcmp(reader->fields[0], "result") != 0)
      return readerError(reader,
                         "'%s' after the last argument of 'arguments %d' "
                         "(only 'result' lines follow them)",
                         reader->fields[0], abi->num_arguments);
    if (parseResult(reader, abi))
      return reader->status;
  }
  return checkGridReferences(reader, abi, gridLines);
}

/* Reads the whole file, NUL-terminated. */
static gpucg_status readText(const char *path, char **text) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return gpucg_fail(GPUCG_ERROR_IO, "cannot open %s: %s", path,
                      strerror(errno));
  struct stat status;
  if (fstat(fileno(file), &status) != 0 || !S_ISREG(status.st_mode)) {
    fclose(file);
    return gpucg_fail(GPUCG_ERROR_IO, "cannot read %s: not a regular file",
                      path);
  }
  size_t capacity = 4096, size = 0;
  char *data = malloc(capacity);
  while (data) {
    size += fread(data + size, 1, capacity - size - 1, file);
    if (size < capacity - 1)
      break;
    capacity *= 2;
    char *larger = realloc(data, capacity);
    if (!larger)
      free(data);
    data = larger;
  }
  int failed = ferror(file);
  fclose(file);
  if (!data)
    return gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY, "no memory to read %s", path);
  if (failed) {
    free(data);
    return gpucg_fail(GPUCG_ERROR_IO, "cannot read %s", path);
  }
  data[size] = '\0';
  if (strlen(data) != size) {
    free(data);
    return gpucg_fail(GPUCG_ERROR_ABI, "%s: a text file has no NUL bytes",
                      path);
  }
  *text = data;
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_abi_read(const char *path, gpucg_abi **abi) {
  if (!path || !abi)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_abi_read: %s is NULL", path ? "abi" : "path");
  *abi = NULL;
  Reader reader;
  memset(&reader, 0, sizeof(reader));
  reader.path = path;
  gpucg_status status = readText(path, &reader.buffer);
  if (status != GPUCG_SUCCESS)
    return status;
  reader.next = reader.buffer;
  gpucg_abi *result = calloc(1, sizeof(gpucg_abi));
  if (!result) {
    free(reader.buffer);
    return gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY, "no memory to read %s", path);
  }
  status = parse(&reader, result);
  free(reader.buffer);
  if (status != GPUCG_SUCCESS) {
    gpucg_abi_destroy(result);
    return status;
  }
  *abi = result;
  return GPUCG_SUCCESS;
}

void gpucg_abi_destroy(gpucg_abi *abi) {
  if (!abi)
    return;
  free(abi->arguments);
  free(abi);
}
