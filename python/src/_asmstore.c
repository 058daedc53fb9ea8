/* _asmstore.c - the C extension under the asmstore Python package (python/asmstore/__init__.py).

   Why the CPython C API and not cffi: view() hands out a memoryview over the file's mapping with
   no copy and keeps the mapping alive while one exists (the buffer protocol, with an export count
   that close() checks, as mmap.close() does), and reads decompress straight into a new bytes
   object; both are direct in the C API, and it needs nothing beyond python3-dev at install time
   (cffi would be a second build dependency with no gain here). read() copies a stored image into
   bytes: a view dies with SIGBUS when another process truncates the file under it.

   Nothing of the library is written again here: inputs are opened by the CLI's own code
   (tools/cli_input.c: raw stores, .so, .NET 6-8 sets, APK/AAB/split APKs, DEFLATEd entries through
   cli_inflate.c), entries are read by asmstore.h's reader (its implementation is compiled in
   tools/cli_common.c), and pack, repack and extract run the CLI's commands in-process
   (asmstore_cli_main: tools/asmstore.c's main renamed by setup.py) with C stdout and stderr caught
   in memory, so their exit status and message reach the Python exception and nothing they print
   reaches the caller's output (main() runs the CLI as it is, for python -m asmstore). The GIL is
   held throughout: a Store is used by one thread at a time. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cli_digest.h"
#include "cli_input.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* tools/asmstore.c's main, renamed when compiled into this extension */
int asmstore_cli_main(int argc, char **argv);

/* >>errors ------------------------------------------------------------------------------------- */
/* asmstore.AsmstoreError and asmstore.EntryNotFound, handed over by the package's __init__.py */
static PyObject *error_class;
static PyObject *not_found_class;

/* An int object, or None when `known` is 0 (a new reference either way). */
static PyObject *int_or_none(int known, long long v) {
    if (!known)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}

/* Appends item (a new reference; NULL when making it failed) to *list and drops the reference: 0,
   or -1 with *list released and NULL (an exception set). */
static int append_new(PyObject **list, PyObject *item) {
    if (item && PyList_Append(*list, item) == 0) {
        Py_DECREF(item);
        return 0;
    }
    Py_XDECREF(item);
    Py_CLEAR(*list);
    return -1;
}

/* The same for an unsigned value (a 64-bit name hash). */
static PyObject *uint_or_none(int known, unsigned long long v) {
    if (!known)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(v);
}

/* Raises cls(message, code, offset, entry, status): code, offset and entry None when unknown. */
static PyObject *raise_error(PyObject *cls, const char *message, const asmstore_error *err,
                             asmstore_result r, int status) {
    int about = err && err->result == r;
    PyObject *code = int_or_none(r != ASMSTORE_OK, (long long)r);
    PyObject *offset = int_or_none(about && err->offset, about ? (long long)err->offset : 0);
    PyObject *entry = int_or_none(about && err->entry >= 0, about ? (long long)err->entry : 0);
    /* a message names paths and archive entries, which need not be UTF-8 */
    PyObject *text = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
    PyObject *exc = NULL;

    if (!cls)
        PyErr_SetString(PyExc_RuntimeError, "asmstore: the package did not initialise _asmstore");
    else if (code && offset && entry && text)
        exc = PyObject_CallFunction(cls, "OOOOi", text, code, offset, entry, status);
    if (exc) {
        PyErr_SetObject(cls, exc);
        Py_DECREF(exc);
    }
    Py_XDECREF(text);
    Py_XDECREF(code);
    Py_XDECREF(offset);
    Py_XDECREF(entry);
    return NULL;
}

/* Raises AsmstoreError for result r about `what` (cli_failure's words: the library's message and
   offset). */
static PyObject *raise_result(const char *what, asmstore_result r, const asmstore_error *err) {
    char why[512], msg[2048];

    snprintf(msg, sizeof msg, "asmstore: %s: %s", what, cli_failure(r, err, why, sizeof why));
    return raise_error(r == ASMSTORE_ERR_NOT_FOUND || r == ASMSTORE_ERR_IGNORED ? not_found_class
                                                                                 : error_class,
                       msg, err, r, cli_status(r));
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &error_class, &not_found_class))
        return NULL;
    Py_INCREF(error_class);
    Py_INCREF(not_found_class);
    Py_RETURN_NONE;
}

/* >>capture: what the commands print ----------------------------------------------------------- */
/* C's stdout and stderr swapped for memory streams while CLI code runs (glibc's stdout and stderr
   are plain variables); Python's own output goes through its file descriptors and is untouched. */
typedef struct capture {
    FILE *saved_out, *saved_err;
    char *out, *err;
    size_t nout, nerr;
} capture;

static int capture_begin(capture *c) {
    FILE *out, *err;

    memset(c, 0, sizeof *c);
    fflush(stdout);
    fflush(stderr);
    out = open_memstream(&c->out, &c->nout);
    err = out ? open_memstream(&c->err, &c->nerr) : NULL;
    if (!err) {
        if (out)
            fclose(out);
        free(c->out);
        PyErr_NoMemory();
        return -1;
    }
    c->saved_out = stdout;
    c->saved_err = stderr;
    stdout = out;
    stderr = err;
    return 0;
}

/* Restores stdout and stderr; c->out and c->err hold what was printed (capture_free frees it). */
static void capture_end(capture *c) {
    FILE *out = stdout, *err = stderr;

    stdout = c->saved_out;
    stderr = c->saved_err;
    fclose(out);
    fclose(err);
}

static void capture_free(capture *c) {
    free(c->out);
    free(c->err);
}

/* >>run: a command in-process ------------------------------------------------------------------ */
/* The CLI's argv from a list of bytes: "asmstore" and the list's items (which it points into: the
   list must outlive it), NULL-terminated; NULL with an exception set on failure. */
static char **cli_argv(PyObject *list, int *argc) {
    Py_ssize_t n = PyList_Size(list), i;
    char **argv = (char **)calloc((size_t)n + 2, sizeof *argv);

    if (!argv || n > INT_MAX - 1) {
        free(argv);
        PyErr_NoMemory();
        return NULL;
    }
    argv[0] = (char *)"asmstore";
    for (i = 0; i < n; i++)
        if (!(argv[i + 1] = PyBytes_AsString(PyList_GetItem(list, i)))) {
            free(argv);
            return NULL;
        }
    *argc = (int)n + 1;
    return argv;
}

/* run([b"pack", b"-o", OUT, ...]) -> (exit status, stdout, stderr) of `asmstore ARGS...`, all
   bytes (os.fsencode'd paths). */
static PyObject *py_run(PyObject *self, PyObject *args) {
    PyObject *list, *res = NULL;
    char **argv;
    capture c;
    int argc, rc;

    (void)self;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &list) || !(argv = cli_argv(list, &argc)))
        return NULL;
    if (capture_begin(&c) == 0) {
        rc = asmstore_cli_main(argc, argv);
        capture_end(&c);
        res = Py_BuildValue("(iy#y#)", rc, c.out, (Py_ssize_t)c.nout, c.err, (Py_ssize_t)c.nerr);
        capture_free(&c);
    }
    free(argv);
    return res;
}

/* main([args as bytes]) -> exit status: `asmstore ARGS...` printing to the process's stdout and
   stderr as the CLI does (python -m asmstore). */
static PyObject *py_main(PyObject *self, PyObject *args) {
    PyObject *list;
    char **argv;
    int argc, rc;

    (void)self;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &list) || !(argv = cli_argv(list, &argc)))
        return NULL;
    rc = asmstore_cli_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    free(argv);
    return PyLong_FromLong(rc);
}

/* >>store: an opened input --------------------------------------------------------------------- */
/* The stores of one input that the Python object serves: every ABI's that opened (one ABI's when
   open() was given one), a .NET 6-8 set's store 0 among them; names are looked up in `abi`'s. */
typedef struct store_obj {
    PyObject_HEAD
    cli_input *in;
    char *path;                 /* in->path points here */
    int units[CLI_MAX_UNITS];   /* the units served, in the input's order */
    int nunits;
    asmstore_abi abi;           /* whose stores a name is looked up in (with store 0) */
    Py_ssize_t exports;         /* memoryviews over the mapping still alive */
    ZSTD_DCtx *dctx;
} store_obj;

/* heap types (PyType_FromSpec: the stable ABI has no static ones), made by PyInit__asmstore */
static PyTypeObject *store_type, *view_type;

static void store_release(store_obj *s) {
    if (s->in) {
        cli_input_close(s->in);
        free(s->in);
        s->in = NULL;
    }
    free(s->path);
    s->path = NULL;
    ZSTD_freeDCtx(s->dctx);
    s->dctx = NULL;
    s->nunits = 0;
}

static void store_dealloc(store_obj *s) {
    PyTypeObject *type = Py_TYPE((PyObject *)s);

    store_release(s); /* no export can be alive: each holds a reference */
    PyObject_Free(s);
    Py_DECREF(type); /* a heap type's instances hold a reference to it */
}

static int store_closed(const store_obj *s) {
    if (s->in)
        return 0;
    PyErr_SetString(PyExc_ValueError, "I/O operation on a closed asmstore.Store");
    return 1;
}

/* The ABI served when none was asked for: the host's when the input has it, else the first
   opened store's. */
static asmstore_abi pick_abi(const cli_input *in) {
    asmstore_abi host = asmstore_host_abi(), first = ASMSTORE_ABI_UNKNOWN;
    int i;

    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];

        if (!u->selected || !u->opened || u->abi == ASMSTORE_ABI_UNKNOWN)
            continue;
        if (u->abi == host)
            return host;
        if (first == ASMSTORE_ABI_UNKNOWN)
            first = u->abi;
    }
    return first;
}

/* The message of every selected store that did not open (cli_unit_problem's words), raised with
   the first one's result. */
static PyObject *raise_problems(const cli_input *in) {
    const cli_unit *first = NULL;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    int i, status = 1;

    if (!f)
        return PyErr_NoMemory();
    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];

        if (!u->selected || u->opened)
            continue;
        if (!first)
            first = u;
        status = cli_unit_problem(in, u, f);
    }
    fclose(f);
    if (n && text[n - 1] == '\n')
        text[n - 1] = 0;
    raise_error(error_class, text, first ? &first->err : NULL,
                first ? first->res : ASMSTORE_ERR_NOT_FOUND, status);
    free(text);
    return NULL;
}

/* cli_no_store's message (what was looked for) as the exception. */
static PyObject *raise_no_store(const char *path, asmstore_abi only) {
    capture c;

    if (capture_begin(&c) != 0)
        return NULL;
    cli_no_store(path, only);
    capture_end(&c);
    if (c.nerr && c.err[c.nerr - 1] == '\n')
        c.err[c.nerr - 1] = 0;
    raise_error(error_class, c.err, NULL, ASMSTORE_ERR_NOT_FOUND, 1);
    capture_free(&c);
    return NULL;
}

/* Chooses the units s serves once s->in is open (every selected one that opened) and the ABI
   names are looked up in: NULL (an exception set) when none is usable. */
static PyObject *store_choose(store_obj *s, asmstore_abi only) {
    cli_input *in = s->in;
    int i, selected = 0;

    s->abi = only ? only : pick_abi(in);
    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];

        selected |= u->selected;
        if (u->selected && u->opened)
            s->units[s->nunits++] = i;
    }
    if (!selected)
        return raise_no_store(in->path, only);
    if (!s->nunits)
        return raise_problems(in);
    return (PyObject *)s;
}

/* An ABI's name as Python gives it: "" is `dflt`; 0, or -1 with ValueError for an unknown one. */
static int parse_abi(const char *name, asmstore_abi dflt, asmstore_abi *abi) {
    if (!*name) {
        *abi = dflt;
        return 0;
    }
    if ((*abi = asmstore_abi_parse(name)) != ASMSTORE_ABI_UNKNOWN)
        return 0;
    PyErr_Format(PyExc_ValueError,
                 "unknown ABI '%s': give arm64, arm, x86_64 or x86 (or arm64-v8a, armeabi-v7a)",
                 name);
    return -1;
}

/* abi_name(name) -> "arm64-v8a": the Android name of an ABI given any way parse_abi takes. */
static PyObject *py_abi_name(PyObject *self, PyObject *args) {
    const char *name;
    asmstore_abi abi;

    (void)self;
    if (!PyArg_ParseTuple(args, "s", &name) || parse_abi(name, ASMSTORE_ABI_UNKNOWN, &abi))
        return NULL;
    if (abi == ASMSTORE_ABI_UNKNOWN)
        return PyErr_Format(PyExc_ValueError, "no ABI given");
    return PyUnicode_FromString(asmstore_abi_android_name(abi));
}

/* open(path as bytes, abi) -> Store: abi "" for every ABI (names looked up in the host's if there,
   else the first found's). */
static PyObject *py_open(PyObject *self, PyObject *args) {
    const char *path, *abi_name;
    asmstore_abi only;
    store_obj *s;
    int rc;

    (void)self;
    if (!PyArg_ParseTuple(args, "ys", &path, &abi_name) ||
        parse_abi(abi_name, ASMSTORE_ABI_UNKNOWN, &only))
        return NULL;
    if (!(s = PyObject_New(store_obj, store_type)))
        return NULL;
    s->in = (cli_input *)malloc(sizeof *s->in);
    s->path = strdup(path);
    s->nunits = 0;
    s->abi = ASMSTORE_ABI_UNKNOWN;
    s->exports = 0;
    s->dctx = ZSTD_createDCtx();
    if (!s->in || !s->path || !s->dctx) {
        free(s->in);
        s->in = NULL;
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    if ((rc = cli_input_open(s->in, s->path, only)) == 2) {
        PyObject *name = PyUnicode_DecodeFSDefault(path); /* OSError.filename is a str */

        if (name)
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name);
        Py_XDECREF(name);
        Py_DECREF(s);
        return NULL;
    }
    if (rc == 1 || !store_choose(s, only)) {
        if (!PyErr_Occurred())
            raise_no_store(path, only);
        Py_DECREF(s);
        return NULL;
    }
    return (PyObject *)s;
}

/* >>store: what it is -------------------------------------------------------------------------- */
static PyObject *unit_info(const cli_unit *u) {
    char release[256];

    cli_unit_release(u, release, sizeof release);
    return Py_BuildValue(
        "{s:N,s:s,s:I,s:I,s:s,s:s,s:O,s:s,s:s,s:i,s:I,s:I,s:K,s:O,s:O,s:O,s:n}", "label",
        PyUnicode_DecodeFSDefault(u->label),
        "abi", cli_unit_abi(u), "format", u->r.format, "version_word", u->r.version_word,
        "hash", asmstore_hash_name(u->r.hash_kind), "wrapper", u->wrapper, "is_64bit",
        u->r.is_64bit ? Py_True : Py_False, "release", release, "runtime", cli_unit_runtime(u),
        "compression", (int)cli_unit_compression(u), "entry_count",
        u->r.entry_count, "store_id", u->r.store_id, "payload_offset",
        (unsigned long long)u->payload_offset, "in_archive", u->in_zip ? Py_True : Py_False,
        "deflated", u->deflated ? Py_True : Py_False, "from_split",
        u->from_split ? Py_True : Py_False, "image_alignment",
        (Py_ssize_t)cli_unit_image_alignment(u));
}

/* units() -> [dict]: each store served, as unit_info describes it. */
static PyObject *store_units(store_obj *s, PyObject *unused) {
    PyObject *list;
    int i;

    (void)unused;
    if (store_closed(s) || !(list = PyList_New(s->nunits)))
        return NULL;
    for (i = 0; i < s->nunits; i++) {
        PyObject *d = unit_info(&s->in->units[s->units[i]]);

        if (!d) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, i, d); /* steals d; cannot fail for i < size */
    }
    return list;
}

/* problems() -> [str]: why each store asked for that did not open was left out (cli_unit_problem's
   words): the other stores are served. */
static PyObject *store_problems(store_obj *s, PyObject *unused) {
    PyObject *list;
    int i;

    (void)unused;
    if (store_closed(s) || !(list = PyList_New(0)))
        return NULL;
    for (i = 0; i < s->in->n; i++) {
        const cli_unit *u = &s->in->units[i];
        PyObject *text = NULL;
        char *msg = NULL;
        size_t n = 0;
        FILE *f;

        if (!u->selected || u->opened)
            continue;
        if ((f = open_memstream(&msg, &n))) {
            cli_unit_problem(s->in, u, f);
            fclose(f);
            while (n && msg[n - 1] == '\n')
                n--;
            text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)n, "replace");
        } else {
            PyErr_NoMemory();
        }
        free(msg);
        if (append_new(&list, text))
            return NULL;
    }
    return list;
}

/* abis() -> [str]: every ABI the input holds a store for (whichever this Store serves). */
static PyObject *store_abis(store_obj *s, PyObject *unused) {
    PyObject *list;
    int i, j, seen[8] = {0};

    (void)unused;
    if (store_closed(s) || !(list = PyList_New(0)))
        return NULL;
    for (i = 0; i < s->in->n; i++) {
        j = (int)s->in->units[i].abi;
        if (j <= 0 || j >= 8 || seen[j]++)
            continue;
        if (append_new(&list, PyUnicode_FromString(asmstore_abi_android_name((asmstore_abi)j))))
            return NULL;
    }
    return list;
}

/* >>store: entries ----------------------------------------------------------------------------- */
/* A name as str: UTF-8 (the reader checks it), else its bytes kept as os.fsdecode keeps them. */
static PyObject *name_str(const char *p, size_t n) {
    if (!p)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
}

/* The ABI of unit u as list --json names it: None for a .NET 6-8 store 0 (it serves every ABI). */
static PyObject *unit_abi_or_none(const cli_unit *u) {
    if (u->abi == ASMSTORE_ABI_UNKNOWN)
        Py_RETURN_NONE;
    return PyUnicode_FromString(asmstore_abi_android_name(u->abi));
}

static PyObject *entry_tuple(int unit, const cli_unit *u, const asmstore_entry *e) {
    /* what list --json shows as null: a format-1 ABI blob has no index tables of its own */
    int v1 = u->r.format == 1, tables = !v1 || u->r.store_id == 0 || u->r.v1_common;
    char fname[1200];

    if (cli_entry_filename(u, e, fname, sizeof fname) != 0)
        fname[0] = 0;
    return Py_BuildValue("(iNIONNinnnnNN)", unit, unit_abi_or_none(u), e->index,
                         e->ignored ? Py_True : Py_False, name_str(e->name, e->name_len),
                         name_str(fname, strlen(fname)), (int)e->compression,
                         (Py_ssize_t)e->image_size, (Py_ssize_t)e->uncompressed_size,
                         (Py_ssize_t)e->pdb_size, (Py_ssize_t)e->config_size,
                         uint_or_none(v1 && tables, (unsigned long long)e->hash),
                         uint_or_none(tables, e->mapping_index));
}

/* entries() -> [(unit, ABI or None, index, ignored, name or None, file name, compression, stored
   size, size, pdb size, config size, format-1 hash or None, mapping index or None)] in descriptor
   order, store by store. */
static PyObject *store_entries(store_obj *s, PyObject *unused) {
    PyObject *list;
    int i;

    (void)unused;
    if (store_closed(s) || !(list = PyList_New(0)))
        return NULL;
    for (i = 0; i < s->nunits; i++) {
        const cli_unit *u = &s->in->units[s->units[i]];
        asmstore_error err;
        asmstore_entry e;
        uint32_t k;

        for (k = 0; k < u->r.entry_count; k++) {
            asmstore_result r = asmstore_reader_entry(&u->r, k, &e, &err);

            if (r != ASMSTORE_OK) {
                Py_DECREF(list);
                return raise_result(u->label, r, &err);
            }
            if (append_new(&list, entry_tuple(i, u, &e)))
                return NULL;
        }
    }
    return list;
}

/* >>store: reading ----------------------------------------------------------------------------- */
/* A slice of a store's mapping that a memoryview reads in place: it keeps the store open. */
typedef struct view_obj {
    PyObject_HEAD
    store_obj *store;
    const unsigned char *p;
    Py_ssize_t n;
} view_obj;

static int view_getbuffer(view_obj *v, Py_buffer *b, int flags) {
    if (PyBuffer_FillInfo(b, (PyObject *)v, (void *)(uintptr_t)v->p, v->n, 1, flags) != 0)
        return -1;
    v->store->exports++;
    return 0;
}

static void view_releasebuffer(view_obj *v, Py_buffer *b) {
    (void)b;
    v->store->exports--;
}

static void view_dealloc(view_obj *v) {
    PyTypeObject *type = Py_TYPE((PyObject *)v);

    Py_DECREF(v->store);
    PyObject_Free(v);
    Py_DECREF(type);
}

#if PY_VERSION_HEX < 0x03090000 /* 3.8 has no buffer slots: PyInit__asmstore sets them */
#define Py_bf_getbuffer 0
#define Py_bf_releasebuffer 0
#endif
static PyType_Slot view_slots[] = {
    {Py_bf_getbuffer, (void *)view_getbuffer},
    {Py_bf_releasebuffer, (void *)view_releasebuffer},
    {Py_tp_dealloc, (void *)view_dealloc},
    {Py_tp_doc, (void *)"bytes of a store's mapping, read through a memoryview"},
    {0, NULL}};
static PyType_Spec view_spec = {"asmstore._asmstore.View", sizeof(view_obj), 0, Py_TPFLAGS_DEFAULT,
                                view_slots};

static PyTypeObject *new_view_type(void) {
#if PY_VERSION_HEX >= 0x03090000
    return (PyTypeObject *)PyType_FromSpec(&view_spec);
#else /* 3.8: the two buffer slots set on the type itself */
    PyType_Spec spec = view_spec;
    PyHeapTypeObject *t;

    spec.slots += 2;
    if (!(t = (PyHeapTypeObject *)PyType_FromSpec(&spec)))
        return NULL;
    t->as_buffer.bf_getbuffer = (getbufferproc)view_getbuffer;
    t->as_buffer.bf_releasebuffer = (releasebufferproc)view_releasebuffer;
    return &t->ht_type;
#endif
}

/* A read-only memoryview over p[0..n) of s's mapping. */
static PyObject *mapped_view(store_obj *s, const unsigned char *p, size_t n) {
    view_obj *v = PyObject_New(view_obj, view_type);
    PyObject *mv;

    if (!v)
        return NULL;
    Py_INCREF((PyObject *)s);
    v->store = s;
    v->p = p;
    v->n = (Py_ssize_t)n;
    mv = PyMemoryView_FromObject((PyObject *)v);
    Py_DECREF(v);
    return mv;
}

/* p[0..n) of s's mapping: copied into new bytes, or with `view` a memoryview over it (no copy, but
   SIGBUS when another process truncates the file while it is read). */
static PyObject *mapped_part(store_obj *s, const unsigned char *p, size_t n, int view) {
    if (view)
        return mapped_view(s, p, n);
    return PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)n);
}

/* Entry e's uncompressed image: a stored one as mapped_part gives it, a compressed one as new bytes
   decompressed into directly. */
static PyObject *entry_image(store_obj *s, const cli_unit *u, const asmstore_entry *e, int view) {
    asmstore_error err;
    asmstore_result r;
    PyObject *b;

    if (e->ignored)
        return raise_result(u->label, ASMSTORE_ERR_IGNORED, NULL);
    if (e->compression == ASMSTORE_COMPRESSION_NONE)
        return mapped_part(s, e->image, e->image_size, view);
    if (!(b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)e->uncompressed_size)))
        return NULL;
    r = asmstore_reader_read(&u->r, e, PyBytes_AsString(b), e->uncompressed_size, s->dctx, &err);
    if (r != ASMSTORE_OK) {
        char what[1400];

        Py_DECREF(b);
        snprintf(what, sizeof what, "%s: entry %u %.*s", u->label, e->index,
                 e->name ? (int)e->name_len : 0, e->name ? e->name : "");
        return raise_result(what, r, &err);
    }
    return b;
}

/* The part asked for of entry e: 0 the image, 1 its .pdb, 2 its .config (None when it has none). */
static PyObject *entry_part(store_obj *s, const cli_unit *u, const asmstore_entry *e, int part,
                            int view) {
    if (part == 0)
        return entry_image(s, u, e, view);
    if (part == 1 && e->pdb)
        return mapped_part(s, e->pdb, e->pdb_size, view);
    if (part == 2 && e->config)
        return mapped_part(s, e->config, e->config_size, view);
    Py_RETURN_NONE;
}

/* 0 for a part entry_part knows, else -1 with ValueError. */
static int check_part(int part) {
    if (part >= 0 && part <= 2)
        return 0;
    PyErr_Format(PyExc_ValueError, "no part %d of an entry: 0 the image, 1 its .pdb, 2 its .config",
                 part);
    return -1;
}

/* EntryNotFound for name: r ASMSTORE_ERR_NOT_FOUND, or ASMSTORE_ERR_IGNORED for a placeholder. */
static PyObject *raise_not_found(const store_obj *s, const char *name, asmstore_result r) {
    char msg[1400];

    snprintf(msg, sizeof msg,
             "%s: no entry named %s%s (names are matched with or without .dll; list them with "
             "iter(store))",
             s->in->path, name, r == ASMSTORE_ERR_IGNORED ? ", only an ignored placeholder" : "");
    return raise_error(not_found_class, msg, NULL, r, 1);
}

/* Entry `index` of the unit-th store served, the part asked for (entry_part). */
static PyObject *read_at(store_obj *s, int unit, uint32_t index, int part, int view) {
    const cli_unit *u;
    asmstore_error err;
    asmstore_entry e;
    asmstore_result r;

    if (unit < 0 || unit >= s->nunits)
        return PyErr_Format(PyExc_IndexError, "no store %d here (%d served)", unit, s->nunits);
    u = &s->in->units[s->units[unit]];
    if (index >= u->r.entry_count)
        return PyErr_Format(PyExc_IndexError, "no entry %u (the store has %u)", index,
                            u->r.entry_count);
    if ((r = asmstore_reader_entry(&u->r, index, &e, &err)) != ASMSTORE_OK)
        return raise_result(u->label, r, &err);
    return entry_part(s, u, &e, part, view);
}

/* Looks name up the way hosts ask (with or without .dll; asmstore_reader_find_index: no image
   touched) in each store served for `abi` (its own and a .NET 6-8 store 0) in turn: ASMSTORE_OK
   with *unit and *index set, else ASMSTORE_ERR_NOT_FOUND or ASMSTORE_ERR_IGNORED (only a
   placeholder has the name); -1 with an exception set when a store failed otherwise. */
static int lookup(store_obj *s, const char *name, size_t len, asmstore_abi abi, int *unit,
                  uint32_t *index) {
    int i, found = ASMSTORE_ERR_NOT_FOUND;

    for (i = 0; i < s->nunits; i++) {
        const cli_unit *u = &s->in->units[s->units[i]];
        asmstore_error err;
        asmstore_result r;

        if (u->abi != abi && u->abi != ASMSTORE_ABI_UNKNOWN)
            continue;
        if ((r = asmstore_reader_find_index(&u->r, name, len, index, &err)) == ASMSTORE_OK) {
            *unit = i;
            return ASMSTORE_OK;
        }
        if (r == ASMSTORE_ERR_IGNORED)
            found = r;
        else if (r != ASMSTORE_ERR_NOT_FOUND) {
            raise_result(u->label, r, &err);
            return -1;
        }
    }
    return found;
}

/* read(name, part=0, abi="", view=0) -> bytes | memoryview | None: the part asked for of the entry
   lookup finds in abi's stores ("": the default ABI's). */
static PyObject *store_read(store_obj *s, PyObject *args) {
    const char *name, *abi_name = "";
    Py_ssize_t len;
    int unit = 0, part = 0, view = 0, r;
    uint32_t index = 0;
    asmstore_abi abi;

    if (!PyArg_ParseTuple(args, "s#|isp", &name, &len, &part, &abi_name, &view) ||
        check_part(part) || store_closed(s) || parse_abi(abi_name, s->abi, &abi))
        return NULL;
    if ((r = lookup(s, name, (size_t)len, abi, &unit, &index)) == ASMSTORE_OK)
        return read_at(s, unit, index, part, view);
    return r < -1 ? raise_not_found(s, name, (asmstore_result)r) : NULL;
}

/* find(name, abi="") -> (unit, index) | None: the lookup alone; a placeholder is None too. */
static PyObject *store_find(store_obj *s, PyObject *args) {
    const char *name, *abi_name = "";
    Py_ssize_t len;
    int unit = 0, r;
    uint32_t index = 0;
    asmstore_abi abi;

    if (!PyArg_ParseTuple(args, "s#|s", &name, &len, &abi_name) || store_closed(s) ||
        parse_abi(abi_name, s->abi, &abi))
        return NULL;
    if ((r = lookup(s, name, (size_t)len, abi, &unit, &index)) == ASMSTORE_OK)
        return Py_BuildValue("(iI)", unit, index);
    if (r == -1)
        return NULL;
    Py_RETURN_NONE;
}

/* read_index(unit, index, part=0, view=0): the same for descriptor `index` of the unit-th store
   served. */
static PyObject *store_read_index(store_obj *s, PyObject *args) {
    int unit, part = 0, view = 0;
    unsigned index;

    if (!PyArg_ParseTuple(args, "iI|ip", &unit, &index, &part, &view) || check_part(part) ||
        store_closed(s))
        return NULL;
    return read_at(s, unit, index, part, view);
}

/* >>store: closing ----------------------------------------------------------------------------- */
static PyObject *store_close(store_obj *s, PyObject *unused) {
    (void)unused;
    if (s->exports > 0)
        return PyErr_Format(PyExc_BufferError,
                            "cannot close the store: %zd memoryview(s) over its mapping are still in "
                            "use (release them, or copy with bytes(view), first)", s->exports);
    store_release(s);
    Py_RETURN_NONE;
}

static PyObject *store_is_closed(store_obj *s, void *unused) {
    (void)unused;
    return PyBool_FromLong(s->in == NULL);
}

static PyMethodDef store_methods[] = {
    {"units", (PyCFunction)store_units, METH_NOARGS, "the stores served, each as a dict"},
    {"abis", (PyCFunction)store_abis, METH_NOARGS, "every ABI the input has a store for"},
    {"problems", (PyCFunction)store_problems, METH_NOARGS, "why each store left out did not open"},
    {"entries", (PyCFunction)store_entries, METH_NOARGS, "every entry, as tuples"},
    {"read", (PyCFunction)store_read, METH_VARARGS,
     "read(name, part=0, abi='', view=False): an entry's bytes"},
    {"find", (PyCFunction)store_find, METH_VARARGS, "find(name, abi='') -> (store, index) or None"},
    {"read_index", (PyCFunction)store_read_index, METH_VARARGS,
     "read_index(unit, index, part=0, view=False): an entry's bytes by descriptor index"},
    {"close", (PyCFunction)store_close, METH_NOARGS, "unmap (BufferError while views live)"},
    {NULL, NULL, 0, NULL}};

/* The ABI names are looked up in (store_choose's), None when only a .NET 6-8 store 0 opened. */
static PyObject *store_default_abi(store_obj *s, void *unused) {
    (void)unused;
    if (s->abi == ASMSTORE_ABI_UNKNOWN)
        Py_RETURN_NONE;
    return PyUnicode_FromString(asmstore_abi_android_name(s->abi));
}

static PyGetSetDef store_getset[] = {
    {"closed", (getter)store_is_closed, NULL, "whether close() ran", NULL},
    {"abi", (getter)store_default_abi, NULL, "the ABI names are looked up in", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot store_slots[] = {
    {Py_tp_dealloc, (void *)store_dealloc},
    {Py_tp_doc, (void *)"an input's stores (asmstore.open wraps it)"},
    {Py_tp_methods, store_methods},
    {Py_tp_getset, store_getset},
    {0, NULL}};
static PyType_Spec store_spec = {"asmstore._asmstore.Store", sizeof(store_obj), 0,
                                 Py_TPFLAGS_DEFAULT, store_slots};

/* >>module ------------------------------------------------------------------------------------- */
/* results() -> [(code, name, text)]: every asmstore_result. */
static PyObject *py_results(PyObject *self, PyObject *unused) {
    PyObject *list = PyList_New(0);

    (void)self;
    (void)unused;
#define RESULT_ROW(name, value, text)                                                            \
    if (list)                                                                                    \
        append_new(&list, Py_BuildValue("(iss)", value, #name, text));
    ASMSTORE_RESULT_LIST(RESULT_ROW)
#undef RESULT_ROW
    return list;
}

/* name_hash(name as bytes, kind) -> int: the name's hash as a store of that kind ("crc32",
   "xxh32", "xxh3-64", "xxh64": Info.hash) indexes it. */
static PyObject *py_name_hash(PyObject *self, PyObject *args) {
    const char *name, *kind;
    Py_ssize_t len;
    int k;

    (void)self;
    if (!PyArg_ParseTuple(args, "y#s", &name, &len, &kind))
        return NULL;
    for (k = ASMSTORE_HASH_CRC32; k <= ASMSTORE_HASH_XXH64; k++)
        if (!strcmp(kind, asmstore_hash_name((asmstore_hash_kind)k)))
            return PyLong_FromUnsignedLongLong(
                (unsigned long long)asmstore_name_hash((asmstore_hash_kind)k, name, (size_t)len));
    return PyErr_Format(PyExc_ValueError,
                        "unknown hash kind '%s': give crc32, xxh32, xxh3-64 or xxh64", kind);
}

/* A str of s[0..n), or None for NULL; invalid UTF-8 replaced as --json replaces it. */
static PyObject *str_or_none(const char *s, size_t n) {
    if (!s) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
}

/* identity(image) -> list --json's "identity" as a dict, or None for what is no assembly. */
static PyObject *py_identity(PyObject *self, PyObject *args) {
    Py_buffer b;
    cli_identity_text t;
    const asmstore_identity *id = &t.id;
    PyObject *d;

    (void)self;
    if (!PyArg_ParseTuple(args, "y*", &b)) return NULL;
    if (cli_identity_read(&t, b.buf, (size_t)b.len) != 0) {
        PyBuffer_Release(&b);
        Py_RETURN_NONE;
    }
    d = Py_BuildValue("{s:N,s:N,s:N,s:N,s:s,s:k,s:N,s:N,s:N}",
                      "name", str_or_none(id->has_assembly ? id->name : NULL, id->name_len),
                      "version", str_or_none(id->has_assembly ? t.version : NULL, strlen(t.version)),
                      "culture", str_or_none(id->culture_len ? id->culture : NULL, id->culture_len),
                      "public_key_token", str_or_none(t.token[0] ? t.token : NULL, strlen(t.token)),
                      "mvid", t.mvid, "timestamp", (unsigned long)id->timestamp,
                      "debug_id", str_or_none(t.debug_id[0] ? t.debug_id : NULL, strlen(t.debug_id)),
                      "pdb_path", str_or_none(id->has_codeview ? id->pdb_path : NULL, id->pdb_path_len),
                      "pdb_checksum", str_or_none(t.pdb_checksum, t.pdb_checksum ? strlen(t.pdb_checksum) : 0));
    cli_identity_free(&t);
    PyBuffer_Release(&b);
    return d;
}

static PyMethodDef module_methods[] = {
    {"_init", py_init, METH_VARARGS, "_init(AsmstoreError, EntryNotFound)"},
    {"open", py_open, METH_VARARGS, "open(path, abi) -> Store (abi '' for any)"},
    {"run", py_run, METH_VARARGS, "run([args]) -> (status, stdout, stderr) of the CLI"},
    {"main", py_main, METH_VARARGS, "main([args]) -> the CLI's exit status, printing as it does"},
    {"name_hash", py_name_hash, METH_VARARGS, "name_hash(name, kind) -> a store index's hash"},
    {"abi_name", py_abi_name, METH_VARARGS, "abi_name('arm64') -> 'arm64-v8a'"},
    {"identity", py_identity, METH_VARARGS, "identity(image) -> who an assembly says it is, or None"},
    {"results", py_results, METH_NOARGS, "every result code: (code, name, text)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_asmstore",
    "the C part of the asmstore package: asmstore.h and the CLI's input and command code", -1,
    module_methods, NULL, NULL, NULL, NULL};

/* exported by hand: setup.py builds with -fvisibility=hidden, and Python 3.8's PyMODINIT_FUNC does
   not mark the function visible (3.9's does) */
__attribute__((visibility("default"))) PyMODINIT_FUNC PyInit__asmstore(void) {
    PyObject *m, *v = NULL;

    if (!store_type && !(store_type = (PyTypeObject *)PyType_FromSpec(&store_spec)))
        return NULL;
    if (!view_type && !(view_type = new_view_type()))
        return NULL;
    if (!(m = PyModule_Create(&module_def)))
        return NULL;
    /* version_string: the CLI's --version words (tools/asmstore.c prints the same three macros) */
    if (PyModule_AddIntConstant(m, "version", (long)asmstore_version_number()) < 0 ||
        !(v = PyUnicode_FromFormat("%d.%d.%d", ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR,
                                   ASMSTORE_VERSION_PATCH)) ||
        PyModule_AddObject(m, "version_string", v) < 0) {
        Py_XDECREF(v);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
