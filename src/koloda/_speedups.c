/* The hot paths of koloda's observation tensors and action masks, in C (koloda._speedups).
 *
 * Every function has a reference implementation in Python that it must equal entry for entry:
 * bank_encode is BankEncoder.encode_python (koloda/bank/tensor.py), float_vector is
 * VectorBuilder.build_python and action_mask is mask_python (koloda/tensor.py).
 * tests/rl/test_rl_speedups.py compares them at every step of many games. bank_encode is the compiled
 * twin of the engine's own view of a seat: it reads the Bank state's fields (koloda/bank/rules.py) and
 * takes the seat's hand from the one visibility rule, koloda.bank.observe.visible_hand. The Python code reads
 * the C module when it is built and falls back to the reference otherwise (docs/performance.md,
 * "RL interfaces", says why: in Python the observation cost three engine steps).
 *
 * The results are new NumPy arrays (float32 tensors, int8 masks), made with NumPy's C API.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* -- helpers -------------------------------------------------------------------------------------- */

static void set_bits(float *v, Py_ssize_t at, unsigned long long bits) {
    for (Py_ssize_t i = at; bits; i++, bits >>= 1) {
        if (bits & 1) v[i] = 1.0f;
    }
}

static int popcount(unsigned long long bits) {
    int n = 0;
    for (; bits; n++) bits &= bits - 1;
    return n;
}

/* Python's modulo: the result has the sign of n (here always in 0..n-1). */
static long pymod(long a, long n) { return ((a % n) + n) % n; }

/* An int attribute (bools included); -1 with an exception set on failure (callers check). */
static int attr_long(PyObject *obj, PyObject *name, long *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* item i of a list or tuple (a borrowed reference from PySequence_Fast) as a C long / bit set. */
static int item_long(PyObject *fast, Py_ssize_t i, long *out) {
    if (i < 0 || i >= PySequence_Fast_GET_SIZE(fast)) {
        PyErr_SetString(PyExc_IndexError, "koloda._speedups: seat index out of range");
        return -1;
    }
    *out = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int item_bits(PyObject *fast, Py_ssize_t i, unsigned long long *out) {
    if (i < 0 || i >= PySequence_Fast_GET_SIZE(fast)) {
        PyErr_SetString(PyExc_IndexError, "koloda._speedups: seat index out of range");
        return -1;
    }
    *out = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
    return (*out == (unsigned long long)-1 && PyErr_Occurred()) ? -1 : 0;
}

/* -- the Bank observation tensor ------------------------------------------------------------------ */

/* Offsets of the blocks: the same as koloda/bank/tensor.py (the tests check every entry). */
enum {
    HAND = 0, BANK = 36, TO_COVER = 72, TOP_OWNER = 108, TO_MOVE = 112, PHASE = 116, OPENING = 121,
    SEVEN_ON_TOP = 122, FOUR_KINGS = 123, FREE_LEAD = 124, CAPTURED = 125, OUT = 269, ACTIVE = 273,
    TRUMP = 277, SENIOR = 293, HAND_COUNTS = 309, STOCK_SIZE = 313, CAPTURED_POINTS = 314, TOTALS = 318,
    BANK_OBS_SIZE = 322
};
enum { NORMAL = 0, OVER = 3, CHOOSE = 4 };  /* phases of koloda/bank/rules.py */
enum { SEVEN = 1 };                          /* the 7's face index (koloda/bank/tables.py) */
enum { TRUMPS_OWN, TRUMPS_SENIOR_JUNIOR, TRUMPS_LISTED };

/* The attributes read, interned once. */
enum {
    A_PHASE, A_N, A_OPTS, A_TRUMPS, A_TARGET_SCORE, A_HANDS, A_BANK, A_STOCK, A_TARGET, A_OPENING,
    A_TOP_OWNER, A_FOUR_KINGS, A_CUR, A_TRUMP_SUITS, A_CHOSEN, A_CAPTURED, A_CAPTURED_PTS, A_OUT,
    A_ACTIVE, A_TOTALS, A_COUNT
};
static const char *attr_names[A_COUNT] = {
    "_phase", "_n", "_opts", "trumps", "target", "_hands", "_bank", "_stock", "_target", "_opening",
    "_top_owner", "_four_kings", "_cur", "_trump_suits", "_chosen", "_captured", "_captured_pts", "_out",
    "_active", "_totals",
};
static PyObject *attr[A_COUNT];

/* The fast sequences a Bank encoding reads, released together. */
enum { S_HANDS, S_BANK, S_SUITS, S_CHOSEN, S_CAPTURED, S_CAPTURED_PTS, S_OUT, S_ACTIVE, S_TOTALS, S_COUNT };
static const int seq_attr[S_COUNT] = {
    A_HANDS, A_BANK, A_TRUMP_SUITS, A_CHOSEN, A_CAPTURED, A_CAPTURED_PTS, A_OUT, A_ACTIVE, A_TOTALS,
};

/* The trump set-up and the match target of the last options seen: reading them costs as much as the
 * rest. Options objects are frozen (a change made by force, past the dataclass, is not seen), and the
 * reference held keeps the identity meaningful (one options object stays alive). */
static PyObject *last_opts = NULL;
static int last_mode;
static long last_scale;

static int trumps_mode(PyObject *opts, long *scale) {
    if (opts == last_opts) {
        *scale = last_scale;
        return last_mode;
    }
    PyObject *trumps = PyObject_GetAttr(opts, attr[A_TRUMPS]);
    if (trumps == NULL) return -1;
    int mode = TRUMPS_LISTED;
    if (PyUnicode_Check(trumps)) {
        if (PyUnicode_CompareWithASCIIString(trumps, "own") == 0) mode = TRUMPS_OWN;
        else if (PyUnicode_CompareWithASCIIString(trumps, "senior-junior") == 0) mode = TRUMPS_SENIOR_JUNIOR;
    }
    Py_DECREF(trumps);
    if (attr_long(opts, attr[A_TARGET_SCORE], scale) < 0) return -1;
    if (*scale == 0) {
        PyErr_SetString(PyExc_ValueError, "koloda._speedups: a Bank target of 0");
        return -1;
    }
    Py_INCREF(opts);
    Py_XSETREF(last_opts, opts);
    last_mode = mode;
    last_scale = *scale;
    return mode;
}

static int bank_fill(float *v, PyObject *state, long seat, unsigned long long hand, PyObject **seq) {
    long phase, n, scale, target, opening, top_owner, four_kings, cur, x;
    unsigned long long bits;
    if (attr_long(state, attr[A_PHASE], &phase) < 0 || attr_long(state, attr[A_N], &n) < 0) return -1;
    if (n < 2 || n > 4 || phase < 0 || phase > CHOOSE) {
        PyErr_Format(PyExc_ValueError, "koloda._speedups: not a Bank state (%ld seats, phase %ld)", n, phase);
        return -1;
    }
    if (seat < 0 || seat >= n) {
        PyErr_Format(PyExc_ValueError, "no seat %ld at a Bank table of %ld", seat, n);
        return -1;
    }
    PyObject *opts = PyObject_GetAttr(state, attr[A_OPTS]);
    if (opts == NULL) return -1;
    int mode = trumps_mode(opts, &scale);
    Py_DECREF(opts);
    if (mode < 0) return -1;
    for (int s = 0; s < S_COUNT; s++) {
        PyObject *value = PyObject_GetAttr(state, attr[seq_attr[s]]);
        if (value == NULL) return -1;
        seq[s] = PySequence_Fast(value, "koloda._speedups: a Bank state field is not a sequence");
        Py_DECREF(value);
        if (seq[s] == NULL) return -1;
    }
    if (attr_long(state, attr[A_TARGET], &target) < 0 || attr_long(state, attr[A_OPENING], &opening) < 0 ||
        attr_long(state, attr[A_TOP_OWNER], &top_owner) < 0 ||
        attr_long(state, attr[A_FOUR_KINGS], &four_kings) < 0 || attr_long(state, attr[A_CUR], &cur) < 0)
        return -1;
    int over = phase == OVER;
    PyObject *suits = seq[S_SUITS];
    Py_ssize_t n_suits = PySequence_Fast_GET_SIZE(suits);
    for (long r = 0; r < n; r++) {
        long q = (seat + r) % n;
        /* rule 3: which suits are trumps (and the senior trump) for seat q */
        if (mode == TRUMPS_OWN) {
            long own;
            if (n_suits ? item_long(suits, q, &own) : item_long(seq[S_CHOSEN], q, &own)) return -1;
            if (own > 3) goto bad_suit;
            if (own >= 0) v[TRUMP + 4 * r + own] = 1.0f; /* -1: not chosen yet (rule 3.2) */
        } else if (mode == TRUMPS_SENIOR_JUNIOR && n_suits) {
            long senior, junior;
            if (item_long(suits, 0, &senior) < 0 || item_long(suits, 1, &junior) < 0) return -1;
            if (senior < 0 || senior > 3 || junior < 0 || junior > 3) goto bad_suit;
            v[TRUMP + 4 * r + senior] = v[TRUMP + 4 * r + junior] = v[SENIOR + 4 * r + senior] = 1.0f;
        } else {
            for (Py_ssize_t i = 0; i < n_suits; i++) {
                if (item_long(suits, i, &x) < 0) return -1;
                if (x < 0 || x > 3) goto bad_suit;
                v[TRUMP + 4 * r + x] = 1.0f;
            }
        }
        if (item_bits(seq[S_CAPTURED], q, &bits) < 0) return -1;
        set_bits(v, CAPTURED + 36 * r, bits & ((1ULL << 36) - 1));
        if (item_long(seq[S_OUT], q, &x) < 0) return -1;
        if (x) v[OUT + r] = 1.0f;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq[S_ACTIVE]); i++) {
            if (item_long(seq[S_ACTIVE], i, &x) < 0) return -1;
            if (x == q) v[ACTIVE + r] = 1.0f;
        }
        if (item_long(seq[S_CAPTURED_PTS], q, &x) < 0) return -1;
        v[CAPTURED_POINTS + r] = (float)((double)x / 124.0);
        if (item_long(seq[S_TOTALS], q, &x) < 0) return -1;
        double total = (double)x / (double)scale;
        v[TOTALS + r] = (float)(total > 10.0 ? 10.0 : total < -10.0 ? -10.0 : total);
        if (item_bits(seq[S_HANDS], q, &bits) < 0) return -1;
        v[HAND_COUNTS + r] = (float)((double)popcount(bits) / 36.0);
    }
    set_bits(v, HAND, hand & ((1ULL << 36) - 1));
    v[PHASE + phase] = 1.0f;
    PyObject *bank = seq[S_BANK];
    Py_ssize_t n_bank = PySequence_Fast_GET_SIZE(bank);
    for (Py_ssize_t i = 0; i < n_bank; i++) {
        if (item_long(bank, i, &x) < 0) return -1;
        if (x < 0 || x > 35) goto bad_card;
        v[BANK + x] = 1.0f;
    }
    if (target >= 0) {
        if (target > 35) goto bad_card;
        if (!over && phase != CHOOSE) v[TO_COVER + target] = 1.0f;
    } else if (phase == NORMAL) {
        v[FREE_LEAD] = 1.0f;
    }
    if (opening && !over) v[OPENING] = 1.0f;
    if (n_bank) {
        if (item_long(bank, n_bank - 1, &x) < 0) return -1;
        if (x % 9 == SEVEN) v[SEVEN_ON_TOP] = 1.0f;
        if (top_owner >= 0) v[TOP_OWNER + pymod(pymod(top_owner, n) - seat, n)] = 1.0f;
    }
    if (four_kings) v[FOUR_KINGS] = 1.0f;
    if (!over) v[TO_MOVE + pymod(pymod(cur, n) - seat, n)] = 1.0f;
    PyObject *stock = PyObject_GetAttr(state, attr[A_STOCK]);
    if (stock == NULL) return -1;
    Py_ssize_t n_stock = PyObject_Length(stock);
    Py_DECREF(stock);
    if (n_stock < 0) return -1;
    v[STOCK_SIZE] = (float)((double)n_stock / 36.0);
    return 0;
bad_suit:
    PyErr_SetString(PyExc_ValueError, "koloda._speedups: a Bank suit outside 0-3");
    return -1;
bad_card:
    PyErr_SetString(PyExc_ValueError, "koloda._speedups: a Bank card outside 0-35");
    return -1;
}

PyDoc_STRVAR(bank_encode_doc,
"bank_encode(state, seat, hand) -> numpy.ndarray\n\n"
"The Bank observation tensor of seat (docs/rl.md) as native float32 bytes; hand is the seat's visible\n"
"hand (koloda.bank.observe.visible_hand).");

static PyObject *bank_encode(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "bank_encode(state, seat, hand) takes three arguments");
        return NULL;
    }
    long seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    unsigned long long hand = PyLong_AsUnsignedLongLong(args[2]);
    if (hand == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    npy_intp dims[1] = {BANK_OBS_SIZE};
    PyObject *out = PyArray_ZEROS(1, dims, NPY_FLOAT32, 0);
    if (out == NULL) return NULL;
    float *v = (float *)PyArray_DATA((PyArrayObject *)out);
    PyObject *seq[S_COUNT] = {NULL};
    int failed = bank_fill(v, args[0], seat, hand, seq);
    for (int s = 0; s < S_COUNT; s++) Py_XDECREF(seq[s]);
    if (failed) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* -- generic vectors and masks -------------------------------------------------------------------- */

/* An index argument (ints and NumPy integers alike), or -1 with an exception set. */
static Py_ssize_t index_arg(PyObject *obj, const char *what) {
    Py_ssize_t value = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < 0) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative, not %zd", what, value);
        return -1;
    }
    return value;
}

PyDoc_STRVAR(float_vector_doc,
"float_vector(flag_bytes, n_bits, scalars, size) -> numpy.ndarray\n\n"
"size float32 values: the n_bits low bits of flag_bytes (little-endian) as 0/1, then the floats of\n"
"the sequence scalars (exactly size - n_bits of them minus the zeros that follow), then zeros. A float\n"
"beyond float32's range is an OverflowError, as struct.pack gives.");

static PyObject *float_vector(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "float_vector(flag_bytes, n_bits, scalars, n_scalars, size) takes five arguments");
        return NULL;
    }
    if (!PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "float_vector: flag_bytes must be bytes");
        return NULL;
    }
    Py_ssize_t n_bits = index_arg(args[1], "n_bits"), n_scalars = index_arg(args[3], "n_scalars");
    Py_ssize_t size = index_arg(args[4], "size");
    if (n_bits < 0 || n_scalars < 0 || size < 0) return NULL;
    if (n_bits > 8 * PyBytes_GET_SIZE(args[0]) || n_bits + n_scalars > size) {
        PyErr_SetString(PyExc_ValueError, "float_vector: the flags and scalars do not fit in size");
        return NULL;
    }
    /* a tuple copy: converting an item may run Python code, which must not change what is read */
    PyObject *scalars = PySequence_Tuple(args[2]);
    if (scalars == NULL) return NULL;
    if (PyTuple_GET_SIZE(scalars) != n_scalars) {
        PyErr_Format(PyExc_ValueError, "float_vector: %zd scalars expected, not %zd", n_scalars,
                     PyTuple_GET_SIZE(scalars));
        Py_DECREF(scalars);
        return NULL;
    }
    npy_intp dims[1] = {size};
    PyObject *out = PyArray_ZEROS(1, dims, NPY_FLOAT32, 0);
    if (out == NULL) {
        Py_DECREF(scalars);
        return NULL;
    }
    float *v = (float *)PyArray_DATA((PyArrayObject *)out);
    const unsigned char *flags = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    for (Py_ssize_t b = 0; 8 * b < n_bits; b++) {
        unsigned long long byte = flags[b];
        if (8 * b + 8 > n_bits) byte &= (1u << (n_bits - 8 * b)) - 1;  /* bits from n_bits on are not flags */
        set_bits(v, 8 * b, byte);
    }
    for (Py_ssize_t i = 0; i < n_scalars; i++) {
        double x = PyFloat_AsDouble(PyTuple_GET_ITEM(scalars, i));
        if (x == -1.0 && PyErr_Occurred()) goto fail;
        if (isfinite(x) && (x > FLT_MAX || x < -FLT_MAX)) {
            PyErr_SetString(PyExc_OverflowError, "float_vector: a scalar too large for float32");
            goto fail;
        }
        v[n_bits + i] = (float)x;
    }
    Py_DECREF(scalars);
    return out;
fail:
    Py_DECREF(scalars);
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(action_mask_doc,
"action_mask(legal, size) -> numpy.ndarray\n\n"
"size int8 entries: 1 at every action id of the sequence legal (ints or NumPy integers), 0 elsewhere;\n"
"an id outside 0..size-1 is an IndexError.");

static PyObject *action_mask(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "action_mask(legal, size) takes two arguments");
        return NULL;
    }
    Py_ssize_t size = index_arg(args[1], "size");
    if (size < 0) return NULL;
    /* a tuple copy: converting an id may run Python code (__index__), which must not change the list */
    PyObject *legal = PySequence_Tuple(args[0]);
    if (legal == NULL) return NULL;
    npy_intp dims[1] = {size};
    PyObject *out = PyArray_ZEROS(1, dims, NPY_INT8, 0);
    if (out == NULL) {
        Py_DECREF(legal);
        return NULL;
    }
    char *m = (char *)PyArray_DATA((PyArrayObject *)out);
    Py_ssize_t n = PyTuple_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t a = PyNumber_AsSsize_t(PyTuple_GET_ITEM(legal, i), PyExc_IndexError);
        if (a == -1 && PyErr_Occurred()) goto fail;
        if (a < 0 || a >= size) {
            PyErr_Format(PyExc_IndexError, "action_mask: action id %zd outside 0-%zd", a, size - 1);
            goto fail;
        }
        m[a] = 1;
    }
    Py_DECREF(legal);
    return out;
fail:
    Py_DECREF(legal);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"bank_encode", (PyCFunction)(void (*)(void))bank_encode, METH_FASTCALL, bank_encode_doc},
    {"float_vector", (PyCFunction)(void (*)(void))float_vector, METH_FASTCALL, float_vector_doc},
    {"action_mask", (PyCFunction)(void (*)(void))action_mask, METH_FASTCALL, action_mask_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "koloda._speedups",
    "The hot paths of koloda's research interfaces in C; see the comment at the top of _speedups.c.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    import_array();
    for (int i = 0; i < A_COUNT; i++) {
        if (attr[i] == NULL && (attr[i] = PyUnicode_InternFromString(attr_names[i])) == NULL) return NULL;
    }
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "BANK_OBS_SIZE", BANK_OBS_SIZE) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
