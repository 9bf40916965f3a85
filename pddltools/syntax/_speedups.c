/* Compiled hot paths of the PDDL parser; pddltools runs the same code in Python when this module is
 * not built (see pddltools/frozen.py and pddltools/pddl/fastpath.py, which say what each part does).
 *
 * Maker: builds an instance of a frozen, slotted dataclass by writing its slots directly. The parser's
 * trees are acyclic and immutable, so the instance is untracked by the cycle collector: a large
 * problem allocates hundreds of thousands of nodes, and each collection would otherwise walk them all.
 *
 * FlatScanner: the fast path for runs of flat literals and init elements. It knows nothing of PDDL's
 * syntax by itself and holds none of its keywords: the character classes of names, variables, white
 * space and comments are computed in Python from the grammar's terminals (and checked against them
 * there), the parentheses and the words of negation and of an init assignment are read from the
 * grammar's rules (pddltools/pddl/parser.py, `_words`), and the nodes are built with Makers of the
 * AST classes it is given. Anything it cannot decide (a character outside ASCII in
 * an element) goes to the Python scanner it is given as `fallback`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>


/* ---------------------------------------------------------------------------------------------- */
/* Maker */

typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;
    Py_ssize_t nfields;
    Py_ssize_t *offsets;
    PyObject *defaults; /* the values of the last fields when a call leaves them out (a tuple) */
    vectorcallfunc vectorcall;
} MakerObject;

static PyTypeObject MakerType;

/* The instance from the first `nargs` fields' values; the others take their defaults (the caller
 * checked that there are enough). */
static PyObject *
maker_build(MakerObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *cls = m->cls;
    PyObject *o = cls->tp_alloc(cls, 0);
    if (o == NULL)
        return NULL;
    Py_ssize_t first_default = m->nfields - PyTuple_GET_SIZE(m->defaults);
    for (Py_ssize_t i = 0; i < m->nfields; i++) {
        PyObject *value = i < nargs ? args[i] : PyTuple_GET_ITEM(m->defaults, i - first_default);
        Py_INCREF(value);
        *(PyObject **)((char *)o + m->offsets[i]) = value;
    }
    if (PyObject_IS_GC(o))
        PyObject_GC_UnTrack(o);
    return o;
}

static PyObject *
maker_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    MakerObject *m = (MakerObject *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "a maker takes positional arguments only");
        return NULL;
    }
    if (nargs > m->nfields || nargs < m->nfields - PyTuple_GET_SIZE(m->defaults)) {
        PyErr_Format(PyExc_TypeError, "%s maker takes %zd arguments, got %zd", m->cls->tp_name, m->nfields, nargs);
        return NULL;
    }
    return maker_build(m, args, nargs);
}

/* Where slot `descr` of cls (or of one of its bases) sits in an instance, or -1 with TypeError naming
   `shown`: a descriptor of another class would read or write outside the instance. `writable`: a
   read-only member is refused too (a maker writes its slots). */
static Py_ssize_t
slot_offset(PyObject *cls, PyObject *descr, PyObject *shown, int writable)
{
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type) || ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX
        || (writable && (((PyMemberDescrObject *)descr)->d_member->flags & READONLY))
        || !PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(descr))) {
        PyErr_Format(PyExc_TypeError, "%R is not a slot of %R", shown, cls);
        return -1;
    }
    return ((PyMemberDescrObject *)descr)->d_member->offset;
}

static PyObject *
maker_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *names, *defaults = NULL;
    if (!PyArg_ParseTuple(args, "O!O!|O!:Maker", &PyType_Type, &cls, &PyTuple_Type, &names, &PyTuple_Type,
                          &defaults))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (defaults != NULL && PyTuple_GET_SIZE(defaults) > n) {
        PyErr_SetString(PyExc_ValueError, "more defaults than fields");
        return NULL;
    }
    MakerObject *m = (MakerObject *)type->tp_alloc(type, 0);
    if (m == NULL)
        return NULL;
    Py_INCREF(cls);
    m->cls = (PyTypeObject *)cls;
    m->defaults = defaults != NULL ? Py_NewRef(defaults) : PyTuple_New(0);
    if (m->defaults == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    m->vectorcall = maker_vectorcall;
    m->offsets = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    if (m->offsets == NULL) {
        Py_DECREF(m);
        return PyErr_NoMemory();
    }
    m->nfields = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *descr = PyObject_GetAttr(cls, PyTuple_GET_ITEM(names, i));
        if (descr == NULL) {
            Py_DECREF(m);
            return NULL;
        }
        m->offsets[i] = slot_offset(cls, descr, PyTuple_GET_ITEM(names, i), 1);
        Py_DECREF(descr);
        if (m->offsets[i] < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return (PyObject *)m;
}

static int
maker_traverse(MakerObject *m, visitproc visit, void *arg)
{
    Py_VISIT(m->cls);
    Py_VISIT(m->defaults);
    return 0;
}

static void
maker_dealloc(MakerObject *m)
{
    PyObject_GC_UnTrack(m);
    Py_CLEAR(m->cls);
    Py_CLEAR(m->defaults);
    PyMem_Free(m->offsets);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

static PyTypeObject MakerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pddltools.syntax._speedups.Maker",
    .tp_doc = "Maker(cls, field_names, defaults=()): a positional constructor that writes the slots of cls "
               "directly; the last len(defaults) fields may be left out",
    .tp_basicsize = sizeof(MakerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = maker_new,
    .tp_traverse = (traverseproc)maker_traverse,
    .tp_dealloc = (destructor)maker_dealloc,
    .tp_vectorcall_offset = offsetof(MakerObject, vectorcall),
    .tp_call = PyVectorcall_Call,
};

/* ---------------------------------------------------------------------------------------------- */
/* without_collector */

/* Every class defined in Python is collected (Py_TPFLAGS_HAVE_GC), and each instance carries the
 * collector's 16-byte header, a quarter of a node of two or three slots. Syntax trees are acyclic and
 * immutable (the Maker already leaves their nodes out of the collector), so their classes can do without
 * it: without_collector(cls) clears the flag of a class that has no instance yet, and gives it the
 * deallocator below, which releases the slots as CPython's own does for a collected class. */

/* Releasing a node releases its sub-nodes from inside its own deallocation. A chain of nodes can be
 * deeper than the C stack (a left-nested sum built by a loop, a million `Not`s), and CPython's own guard,
 * the trashcan, needs the collector's header: past MAX_DEALLOC_DEPTH nested releases, a node is put
 * aside and released by the outermost one, in a loop. */
#define MAX_DEALLOC_DEPTH 1000

static int dealloc_depth;
static PyObject **put_aside;
static Py_ssize_t n_put_aside, put_aside_capacity;

static void release_slots(PyObject *self);

static void
slots_dealloc(PyObject *self)
{
    if (dealloc_depth >= MAX_DEALLOC_DEPTH) {
        if (n_put_aside == put_aside_capacity) {
            Py_ssize_t capacity = put_aside_capacity ? 2 * put_aside_capacity : 1024;
            PyObject **grown = PyMem_RawRealloc(put_aside, capacity * sizeof(PyObject *));
            if (grown == NULL) { /* no memory to defer it: release it here, deeper on the stack */
                release_slots(self);
                return;
            }
            put_aside = grown;
            put_aside_capacity = capacity;
        }
        put_aside[n_put_aside++] = self;
        return;
    }
    dealloc_depth++;
    release_slots(self);
    if (dealloc_depth == 1) {
        while (n_put_aside > 0)
            release_slots(put_aside[--n_put_aside]);
    }
    dealloc_depth--;
}

static void
release_slots(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    /* the slots are those of the class and of its bases: the chain of tp_base holds every class
       that adds to the instance's layout */
    for (PyTypeObject *t = type; t != NULL; t = t->tp_base) {
        if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) || t->tp_members == NULL)
            continue;
        for (PyMemberDef *mp = t->tp_members; mp->name != NULL; mp++) {
            if (mp->type == T_OBJECT_EX && !(mp->flags & READONLY))
                Py_CLEAR(*(PyObject **)((char *)self + mp->offset));
        }
    }
    type->tp_free(self);
    Py_DECREF(type); /* an instance of a class defined in Python holds a reference to it */
}

static PyObject *
without_collector(PyObject *module, PyObject *arg)
{
    if (!PyType_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "without_collector() takes a class");
        return NULL;
    }
    PyTypeObject *t = (PyTypeObject *)arg;
    if (t->tp_dealloc == slots_dealloc)
        Py_RETURN_TRUE;
#ifdef Py_GIL_DISABLED
    Py_RETURN_FALSE; /* the collector of a free-threaded build keeps its state in every object */
#else
    /* only a class defined in Python with __slots__ and nothing more: no __dict__, no __weakref__, no
       finaliser, items of no variable size, and every base of its layout of the same kind or `object` */
    for (PyTypeObject *b = t; b != NULL && b != &PyBaseObject_Type; b = b->tp_base) {
        if (!(b->tp_flags & Py_TPFLAGS_HEAPTYPE) || b->tp_itemsize != 0 || b->tp_dictoffset != 0
            || b->tp_weaklistoffset != 0 || b->tp_finalize != NULL || b->tp_del != NULL)
            Py_RETURN_FALSE;
    }
    if (!(t->tp_flags & Py_TPFLAGS_HAVE_GC) || t->tp_free != PyObject_GC_Del)
        Py_RETURN_FALSE;
    t->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
    t->tp_dealloc = slots_dealloc;
    t->tp_free = PyObject_Free;
    t->tp_traverse = NULL;
    t->tp_clear = NULL;
    PyType_Modified(t);
    Py_RETURN_TRUE;
#endif
}

/* ---------------------------------------------------------------------------------------------- */
/* SpanOf */

/* The getter of a node's `span` (pddltools/tree.py): the anchor span in one slot, moved by the offset in
 * another, built only when the offset is not 0. The Python getter does the same, five times slower: the
 * checkers and the language server read spans by the thousand. */
typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;  /* the class whose slots these are */
    Py_ssize_t anchor_at, offset_at;
    MakerObject *span;  /* Span(origin, offset, length) */
    vectorcallfunc vectorcall;
} SpanOfObject;

static PyObject *
span_of_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SpanOfObject *g = (SpanOfObject *)self;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "SpanOf takes one node");
        return NULL;
    }
    PyObject *node = args[0];
    if (!PyObject_TypeCheck(node, g->cls)) {
        PyErr_Format(PyExc_TypeError, "expected a %s, got %R", g->cls->tp_name, Py_TYPE(node));
        return NULL;
    }
    PyObject *anchor = *(PyObject **)((char *)node + g->anchor_at);
    PyObject *offset = *(PyObject **)((char *)node + g->offset_at);
    if (anchor == NULL) {
        PyErr_SetString(PyExc_AttributeError, "span");
        return NULL;
    }
    if (offset == NULL || anchor == Py_None || !Py_IS_TYPE(anchor, g->span->cls))
        return Py_NewRef(anchor);
    int zero = PyObject_Not(offset); /* for an int, its nb_bool */
    if (zero != 0)
        return zero < 0 ? NULL : Py_NewRef(anchor);
    PyObject *length = *(PyObject **)((char *)anchor + g->span->offsets[2]);
    if (length == NULL) {
        PyErr_SetString(PyExc_AttributeError, "length");
        return NULL;
    }
    PyObject *parts[3] = {anchor, offset, length}; /* relative to the anchor */
    return maker_build(g->span, parts, 3);
}

static PyObject *
span_of_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *anchor, *offset, *span;
    if (!PyArg_ParseTuple(args, "O!OOO!:SpanOf", &PyType_Type, &cls, &anchor, &offset, &MakerType, &span))
        return NULL;
    if (((MakerObject *)span)->nfields != 3) {
        PyErr_SetString(PyExc_TypeError, "the span maker must take (origin, offset, length)");
        return NULL;
    }
    Py_ssize_t anchor_at = slot_offset(cls, anchor, anchor, 0),
               offset_at = anchor_at < 0 ? -1 : slot_offset(cls, offset, offset, 0);
    if (offset_at < 0)
        return NULL;
    SpanOfObject *g = (SpanOfObject *)type->tp_alloc(type, 0);
    if (g == NULL)
        return NULL;
    g->cls = (PyTypeObject *)Py_NewRef(cls);
    g->anchor_at = anchor_at;
    g->offset_at = offset_at;
    g->span = (MakerObject *)Py_NewRef(span);
    g->vectorcall = span_of_vectorcall;
    return (PyObject *)g;
}

static int
span_of_traverse(SpanOfObject *g, visitproc visit, void *arg)
{
    Py_VISIT(g->cls);
    Py_VISIT(g->span);
    return 0;
}

static void
span_of_dealloc(SpanOfObject *g)
{
    PyObject_GC_UnTrack(g);
    Py_CLEAR(g->cls);
    Py_CLEAR(g->span);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyTypeObject SpanOfType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pddltools.syntax._speedups.SpanOf",
    .tp_doc = "SpanOf(cls, anchor_slot, offset_slot, span_maker): the getter of a node's span",
    .tp_basicsize = sizeof(SpanOfObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = span_of_new,
    .tp_traverse = (traverseproc)span_of_traverse,
    .tp_dealloc = (destructor)span_of_dealloc,
    .tp_vectorcall_offset = offsetof(SpanOfObject, vectorcall),
    .tp_call = PyVectorcall_Call,
};

static PyMethodDef speedups_functions[] = {
    {"without_collector", without_collector, METH_O,
     "without_collector(cls): drop the cycle collector's header from the instances of cls, a class with "
     "__slots__ only and no instance yet; True if done (or done before), False if cls is not such a class"},
    {NULL, NULL, 0, NULL},
};

/* ---------------------------------------------------------------------------------------------- */
/* FlatScanner */

#define MAX_WORD 32 /* the longest keyword a scanner is given */

enum { NAME_FIRST = 1, NAME_REST = 2, SPACE = 4, VAR_FIRST = 8, VAR_REST = 16, NUMBER_START = 32 };

typedef struct {
    PyObject_HEAD
    unsigned char classes[128];
    Py_UCS4 comment_start, comment_end, var_prefix;
    Py_UCS4 open, close; /* the grammar's parentheses */
    /* the grammar's words for `(not ATOM)` and `(= (f o) v)`, lower case ASCII */
    char negation[MAX_WORD + 1], equals[MAX_WORD + 1];
    Py_ssize_t negation_len, equals_len;
    int init_mode; /* init elements (names only, `=` assignments) rather than literals (names and variables) */
    PyObject *hard;  /* frozenset of words that are keywords everywhere */
    MakerObject *span, *atom, *not_, *constant, *variable, *function_term, *init_assignment, *number;
    PyObject *number_value; /* word -> int | Fraction | None */
    PyObject *fallback;     /* the Python scanner, for what this one cannot decide */
    PyObject *anchors_of;   /* syntax.frozen.Anchors.of, or NULL: each node gets a span of its own */
} ScannerObject;

typedef struct {
    PyObject *text;
    int kind;
    const void *data;
    Py_ssize_t n;
    PyObject *source;
    PyObject *latest; /* the source's Anchors' latest anchor by length (a dict), or NULL */
} Text;

#define AT(t, i) PyUnicode_READ((t)->kind, (t)->data, (i))
#define DECLINE (-1)   /* not an element this scanner takes: the run ends before it */
#define UNDECIDED (-2) /* an element the Python scanner must judge */
#define FAILED (-3)    /* a Python error is set */
#define MAX_ARGS 256

static Py_ssize_t
skip_space(ScannerObject *s, Text *t, Py_ssize_t i)
{
    while (i < t->n) {
        Py_UCS4 c = AT(t, i);
        if (c < 128 && (s->classes[c] & SPACE)) {
            i++;
        } else if (c == s->comment_start) {
            while (i < t->n && AT(t, i) != s->comment_end)
                i++;
        } else {
            break;
        }
    }
    return i;
}

static int
ends_token(ScannerObject *s, Py_UCS4 c)
{
    return c == s->open || c == s->close || c == s->comment_start || (c < 128 && (s->classes[c] & SPACE));
}

/* The end of the word at i whose first character has class `first` and the others `rest`, which must
 * be followed by what can end a token (or, with `variable_may_follow`, by a variable); DECLINE if there
 * is no such word, UNDECIDED at a character outside ASCII. */
static Py_ssize_t
word_end_before(ScannerObject *s, Text *t, Py_ssize_t i, int first, int rest, int variable_may_follow)
{
    if (i >= t->n)
        return DECLINE;
    Py_UCS4 c = AT(t, i);
    if (c >= 128)
        return UNDECIDED;
    if (!(s->classes[c] & first))
        return DECLINE;
    for (i++; i < t->n; i++) {
        c = AT(t, i);
        if (c >= 128)
            return UNDECIDED;
        if (!(s->classes[c] & rest))
            break;
    }
    if (i < t->n && !ends_token(s, AT(t, i)) && !(variable_may_follow && AT(t, i) == s->var_prefix))
        return DECLINE;
    return i;
}

static Py_ssize_t
word_end(ScannerObject *s, Text *t, Py_ssize_t i, int first, int rest)
{
    return word_end_before(s, t, i, first, rest, 0);
}

/* The end of a predicate or function name: in literals (not in init elements) the grammar reads
 * `(p?x)` as p applied to ?x, and so does the Python scanner. */
static Py_ssize_t
predicate_end(ScannerObject *s, Text *t, Py_ssize_t i)
{
    return word_end_before(s, t, i, NAME_FIRST, NAME_REST, !s->init_mode);
}

/* The interned, lower-cased text[start:end], which word_end found to be ASCII. */
static PyObject *
lowered(Text *t, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *w = PyUnicode_New(end - start, 127);
    if (w == NULL)
        return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(w);
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = AT(t, i);
        out[i - start] = (Py_UCS1)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    PyUnicode_InternInPlace(&w);
    return w;
}

static PyObject *
make_span(ScannerObject *s, PyObject *origin, Py_ssize_t offset, Py_ssize_t length)
{
    PyObject *args[3];
    args[0] = origin;
    args[1] = PyLong_FromSsize_t(offset);
    if (args[1] == NULL)
        return NULL;
    args[2] = PyLong_FromSsize_t(length);
    if (args[2] == NULL) {
        Py_DECREF(args[1]);
        return NULL;
    }
    PyObject *span = maker_build(s->span, args, 3);
    Py_DECREF(args[1]);
    Py_DECREF(args[2]);
    return span;
}

/* A node's position (see pddltools/tree.py): its anchor (returned, a new reference) and its offset from it
 * (*offset, a new reference), as syntax.frozen.Anchors.at gives them: the latest anchor of the same
 * length if the node starts less than 256 characters after it, else a span of the node's own, which
 * becomes the latest. Without anchors, a span of its own at offset 0. NULL on error. */
static PyObject *
position(ScannerObject *s, Text *t, Py_ssize_t start, Py_ssize_t length, PyObject **offset)
{
    *offset = NULL;
    if (t->latest == NULL) {
        PyObject *span = make_span(s, t->source, start, length);
        if (span != NULL)
            *offset = PyLong_FromLong(0);
        return span;
    }
    PyObject *key = PyLong_FromSsize_t(length);
    if (key == NULL)
        return NULL;
    PyObject *anchor = PyDict_GetItemWithError(t->latest, key); /* borrowed */
    if (anchor == NULL && PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    if (anchor != NULL && Py_IS_TYPE(anchor, s->span->cls)) {
        /* a span's origin and offset, read as its Maker writes them */
        PyObject *origin = *(PyObject **)((char *)anchor + s->span->offsets[0]);
        PyObject *at = *(PyObject **)((char *)anchor + s->span->offsets[1]);
        if (origin == t->source && at != NULL && PyLong_CheckExact(at)) {
            Py_ssize_t a = PyLong_AsSsize_t(at);
            if (a == -1 && PyErr_Occurred()) {
                Py_DECREF(key);
                return NULL;
            }
            if (start - a >= 0 && start - a < 256) {
                Py_DECREF(key);
                *offset = PyLong_FromSsize_t(start - a); /* a shared small int */
                return *offset == NULL ? NULL : Py_NewRef(anchor);
            }
        }
    }
    if (PyDict_GET_SIZE(t->latest) >= 4096) /* as Anchors.at: long nodes, rarely alike */
        PyDict_Clear(t->latest);
    anchor = make_span(s, t->source, start, length);
    if (anchor == NULL || PyDict_SetItem(t->latest, key, anchor) < 0) {
        Py_DECREF(key);
        Py_XDECREF(anchor);
        return NULL;
    }
    Py_DECREF(key);
    *offset = PyLong_FromLong(0);
    if (*offset == NULL)
        Py_CLEAR(anchor);
    return anchor;
}

/* Builds with a Maker and releases the references it was given (any may be NULL: then nothing is
 * built, an error being set already). */
static PyObject *
build_steal(MakerObject *m, Py_ssize_t n, PyObject **args)
{
    PyObject *o = NULL;
    int ok = 1;
    for (Py_ssize_t i = 0; i < n; i++)
        ok = ok && args[i] != NULL;
    if (ok)
        o = maker_build(m, args, n);
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XDECREF(args[i]);
    return o;
}

static PyObject *
build3(MakerObject *m, PyObject *a, PyObject *b, PyObject *c)
{
    PyObject *args[3] = {a, b, c};
    return build_steal(m, 3, args);
}

static PyObject *
build4(MakerObject *m, PyObject *a, PyObject *b, PyObject *c, PyObject *d)
{
    PyObject *args[4] = {a, b, c, d};
    return build_steal(m, 4, args);
}

/* A node of one field at start..start + length (its anchor, the field, its offset); steals `field`. */
static PyObject *
build_at(ScannerObject *s, Text *t, MakerObject *m, Py_ssize_t start, Py_ssize_t length, PyObject *field)
{
    PyObject *offset;
    PyObject *anchor = field == NULL ? NULL : position(s, t, start, length, &offset);
    if (anchor == NULL) {
        Py_XDECREF(field);
        return NULL;
    }
    return build3(m, anchor, field, offset);
}

/* 1 if `word` is a keyword everywhere (it cannot be a name), 0 if not, -1 on error. */
static int
is_hard(ScannerObject *s, PyObject *word)
{
    return PySet_Contains(s->hard, word);
}

typedef struct {
    Py_ssize_t start, end;
    int variable;
} Word;

/* The atom whose '(' is at `open`, whose predicate word is start..end: scans the arguments up to
 * the closing parenthesis and sets *predicate (interned), *span (in the source) and *args (their
 * spans relative to *span). Returns the offset after ')', or DECLINE / UNDECIDED / FAILED. */
static Py_ssize_t
scan_atom(ScannerObject *s, Text *t, Py_ssize_t open, Py_ssize_t start, Py_ssize_t end,
          PyObject **predicate, PyObject **span, PyObject **offset, PyObject **args)
{
    Word words[MAX_ARGS];
    Py_ssize_t count = 0;
    Py_ssize_t i = end;
    for (;;) {
        i = skip_space(s, t, i);
        if (i >= t->n)
            return DECLINE;
        Py_UCS4 c = AT(t, i);
        if (c == s->close) {
            i++;
            break;
        }
        if (count == MAX_ARGS)
            return UNDECIDED;
        int variable = !s->init_mode && c == s->var_prefix;
        Py_ssize_t stop = variable ? word_end(s, t, i + 1, VAR_FIRST, VAR_REST)
                                   : word_end(s, t, i, NAME_FIRST, NAME_REST);
        if (stop < 0)
            return stop;
        words[count].start = i;
        words[count].end = stop;
        words[count].variable = variable;
        count++;
        i = stop;
    }
    PyObject *name = lowered(t, start, end);
    if (name == NULL)
        return FAILED;
    int hard = is_hard(s, name);
    if (hard != 0) {
        Py_DECREF(name);
        return hard < 0 ? FAILED : DECLINE;
    }
    PyObject *tuple = PyTuple_New(count);
    PyObject *where_offset = NULL;
    PyObject *where = tuple == NULL ? NULL : position(s, t, open, i - open, &where_offset);
    if (where == NULL) {
        Py_XDECREF(tuple);
        Py_DECREF(name);
        return FAILED;
    }
    Py_ssize_t result = i;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *word = lowered(t, words[k].start, words[k].end);
        if (word == NULL) {
            result = FAILED;
            break;
        }
        if (!words[k].variable) {
            int hard_word = is_hard(s, word);
            if (hard_word != 0) {
                Py_DECREF(word);
                result = hard_word < 0 ? FAILED : DECLINE;
                break;
            }
        }
        PyObject *node = build_at(s, t, words[k].variable ? s->variable : s->constant, words[k].start,
                                  words[k].end - words[k].start, word);
        if (node == NULL) {
            result = FAILED;
            break;
        }
        PyTuple_SET_ITEM(tuple, k, node);
    }
    if (result < 0) {
        Py_DECREF(tuple); /* items not yet set are NULL, which tuple deallocation skips */
        Py_DECREF(where);
        Py_DECREF(where_offset);
        Py_DECREF(name);
        return result;
    }
    if (count)
        PyObject_GC_UnTrack(tuple);
    *predicate = name;
    *span = where;
    *offset = where_offset;
    *args = tuple;
    return result;
}

/* The atom whose '(' is at i (after white space, which the caller skipped), as scan_atom. */
static Py_ssize_t
atom_parts(ScannerObject *s, Text *t, Py_ssize_t i, PyObject **predicate, PyObject **span, PyObject **offset,
           PyObject **args)
{
    if (i >= t->n || AT(t, i) != s->open)
        return DECLINE;
    Py_ssize_t start = skip_space(s, t, i + 1);
    Py_ssize_t end = predicate_end(s, t, start);
    if (end < 0)
        return end;
    return scan_atom(s, t, i, start, end, predicate, span, offset, args);
}

static Py_ssize_t
atom_at(ScannerObject *s, Text *t, Py_ssize_t i, PyObject **out)
{
    PyObject *predicate, *span, *offset, *args;
    Py_ssize_t end = atom_parts(s, t, i, &predicate, &span, &offset, &args);
    if (end < 0)
        return end;
    *out = build4(s->atom, span, predicate, args, offset);
    return *out == NULL ? FAILED : end;
}

/* `(not ATOM)`: `open` is its '(' and i the offset after `not`. */
static Py_ssize_t
negation_at(ScannerObject *s, Text *t, Py_ssize_t open, Py_ssize_t i, PyObject **out)
{
    PyObject *inner;
    Py_ssize_t end = atom_at(s, t, skip_space(s, t, i), &inner);
    if (end < 0)
        return end;
    end = skip_space(s, t, end);
    if (end >= t->n || AT(t, end) != s->close) {
        Py_DECREF(inner);
        return DECLINE;
    }
    end++;
    *out = build_at(s, t, s->not_, open, end - open, inner);
    return *out == NULL ? FAILED : end;
}

/* `(= (f o...) value)`: `open` is its '(' and i the offset after '='. */
static Py_ssize_t
assignment_at(ScannerObject *s, Text *t, Py_ssize_t open, Py_ssize_t i, PyObject **out)
{
    PyObject *function, *fluent_span, *fluent_offset, *args;
    Py_ssize_t after = atom_parts(s, t, skip_space(s, t, i), &function, &fluent_span, &fluent_offset, &args);
    if (after < 0)
        return after;
    PyObject *value = NULL;
    Py_ssize_t result = DECLINE;
    Py_ssize_t start = skip_space(s, t, after), end = start;
    Py_UCS4 c = start < t->n ? AT(t, start) : 0;
    if (start >= t->n) {
        result = DECLINE;
    } else if (c < 128 && (s->classes[c] & NUMBER_START)) {
        while (end < t->n && !ends_token(s, AT(t, end)))
            end++;
        PyObject *word = PyUnicode_Substring(t->text, start, end);
        PyObject *number = word == NULL ? NULL : PyObject_CallOneArg(s->number_value, word);
        Py_XDECREF(word);
        if (number == NULL) {
            result = FAILED;
        } else if (number == Py_None) {
            Py_DECREF(number);
        } else {
            value = build_at(s, t, s->number, start, end - start, number);
            result = value == NULL ? FAILED : end;
        }
    } else {
        end = word_end(s, t, start, NAME_FIRST, NAME_REST);
        if (end < 0) {
            result = end;
        } else {
            PyObject *word = lowered(t, start, end);
            int hard = word == NULL ? -1 : is_hard(s, word);
            if (hard != 0) {
                Py_XDECREF(word);
                result = hard < 0 ? FAILED : DECLINE;
            } else {
                value = build_at(s, t, s->constant, start, end - start, word);
                result = value == NULL ? FAILED : end;
            }
        }
    }
    if (result >= 0) {
        end = skip_space(s, t, end);
        if (end >= t->n || AT(t, end) != s->close)
            result = DECLINE;
        else
            result = end + 1;
    }
    if (result < 0) {
        Py_XDECREF(value);
        Py_DECREF(function);
        Py_DECREF(fluent_span);
        Py_DECREF(fluent_offset);
        Py_DECREF(args);
        return result;
    }
    PyObject *term = build4(s->function_term, fluent_span, function, args, fluent_offset);
    if (term == NULL) {
        Py_DECREF(value);
        return FAILED;
    }
    PyObject *offset;
    PyObject *anchor = position(s, t, open, result - open, &offset);
    if (anchor == NULL) {
        Py_DECREF(term);
        Py_DECREF(value);
        return FAILED;
    }
    *out = build4(s->init_assignment, anchor, term, value, offset);
    return *out == NULL ? FAILED : result;
}

/* Whether text[start:end] is `word` (lower case ASCII, `len` long) in any case: compared in place, so
 * that the test builds no string for every other predicate of that length. */
static int
is_word(Text *t, Py_ssize_t start, Py_ssize_t end, const char *word, Py_ssize_t len)
{
    if (end - start != len)
        return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = AT(t, start + i);
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (Py_UCS4)(unsigned char)word[i])
            return 0;
    }
    return 1;
}

/* One element whose '(' is at `open`. */
static Py_ssize_t
element_at(ScannerObject *s, Text *t, Py_ssize_t open, PyObject **out)
{
    Py_ssize_t start = skip_space(s, t, open + 1);
    if (start >= t->n)
        return DECLINE;
    if (s->init_mode) {
        Py_ssize_t after = start + s->equals_len;
        if (after <= t->n && is_word(t, start, after, s->equals, s->equals_len)) {
            if (after < t->n && !ends_token(s, AT(t, after)))
                return DECLINE;
            return assignment_at(s, t, open, after, out);
        }
    }
    Py_ssize_t end = predicate_end(s, t, start);
    if (end < 0)
        return end;
    if (is_word(t, start, end, s->negation, s->negation_len)) {
        Py_ssize_t next = skip_space(s, t, end);
        if (next < t->n && AT(t, next) == s->open)
            return negation_at(s, t, open, next, out);
    }
    PyObject *predicate, *span, *offset, *args;
    Py_ssize_t after = scan_atom(s, t, open, start, end, &predicate, &span, &offset, &args);
    if (after < 0)
        return after;
    *out = build4(s->atom, span, predicate, args, offset);
    return *out == NULL ? FAILED : after;
}

static PyObject *scan_run(ScannerObject *s, Text *t_, Py_ssize_t pos);

static PyObject *
scanner_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    ScannerObject *s = (ScannerObject *)self;
    PyObject *text, *source;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "UnO:FlatScanner", &text, &pos, &source))
        return NULL;
    Text t = {text, PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text), source, NULL};
    PyObject *latest = NULL;
    if (s->anchors_of != NULL) {
        PyObject *anchors = PyObject_CallOneArg(s->anchors_of, source);
        latest = anchors == NULL ? NULL : PyObject_GetAttrString(anchors, "_latest");
        Py_XDECREF(anchors);
        if (latest == NULL)
            return NULL;
        if (!PyDict_CheckExact(latest)) {
            Py_DECREF(latest);
            PyErr_SetString(PyExc_TypeError, "anchors_of(source)._latest must be a dict");
            return NULL;
        }
        t.latest = latest;
    }
    PyObject *nodes = scan_run(s, &t, pos);
    Py_XDECREF(latest);
    return nodes;
}

/* The run of elements at pos: (nodes, end), or None. */
static PyObject *
scan_run(ScannerObject *s, Text *t_, Py_ssize_t pos)
{
    Text t = *t_;
    PyObject *text = t.text, *source = t.source;
    if (pos < 0)  /* as Pattern.match takes a position: clamped to the text */
        pos = 0;
    else if (pos > t.n)
        pos = t.n;
    PyObject *found = PyList_New(0);
    if (found == NULL)
        return NULL;
    Py_ssize_t end = pos;
    for (;;) {
        Py_ssize_t open = skip_space(s, &t, end);
        if (open >= t.n || AT(&t, open) != s->open)
            break;
        PyObject *node = NULL;
        Py_ssize_t after = element_at(s, &t, open, &node);
        if (after == FAILED) {
            Py_DECREF(found);
            return NULL;
        }
        if (after == UNDECIDED) {
            PyObject *rest = PyObject_CallFunction(s->fallback, "OnO", text, end, source);
            if (rest == NULL) {
                Py_DECREF(found);
                return NULL;
            }
            if (rest != Py_None) {
                PyObject *items = PyTuple_GET_ITEM(rest, 0);
                for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(items); k++) {
                    if (PyList_Append(found, PyTuple_GET_ITEM(items, k)) < 0) {
                        Py_DECREF(rest);
                        Py_DECREF(found);
                        return NULL;
                    }
                }
                end = PyLong_AsSsize_t(PyTuple_GET_ITEM(rest, 1));
            }
            Py_DECREF(rest);
            break;
        }
        if (after == DECLINE)
            break;
        int failed = PyList_Append(found, node);
        Py_DECREF(node);
        if (failed) {
            Py_DECREF(found);
            return NULL;
        }
        end = after;
    }
    if (PyList_GET_SIZE(found) == 0) {
        Py_DECREF(found);
        Py_RETURN_NONE;
    }
    PyObject *nodes = PyList_AsTuple(found);
    Py_DECREF(found);
    if (nodes == NULL)
        return NULL;
    PyObject_GC_UnTrack(nodes);
    return Py_BuildValue("Nn", nodes, end);
}

static int
maker_arg(PyObject *value, void *address)
{
    if (!Py_IS_TYPE(value, &MakerType)) {
        PyErr_SetString(PyExc_TypeError, "expected a Maker");
        return 0;
    }
    *(MakerObject **)address = (MakerObject *)value;
    return 1;
}

static PyObject *
scanner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"classes", "comment_start", "comment_end", "variable_prefix", "open", "close",
                               "negation", "equals", "init_mode", "hard",
                               "span", "atom", "not_", "constant", "variable", "function_term",
                               "init_assignment", "number", "number_value", "fallback", "anchors_of", NULL};
    Py_buffer classes;
    int comment_start, comment_end, var_prefix, open, close, init_mode;
    const char *negation, *equals;
    Py_ssize_t negation_len, equals_len;
    PyObject *hard, *number_value, *fallback, *anchors_of = NULL;
    MakerObject *makers[8];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*iiiiis#s#pO!O&O&O&O&O&O&O&O&OO|O:FlatScanner", keywords,
                                     &classes, &comment_start, &comment_end, &var_prefix, &open, &close,
                                     &negation, &negation_len, &equals, &equals_len, &init_mode, &PyFrozenSet_Type, &hard,
                                     maker_arg, &makers[0], maker_arg, &makers[1], maker_arg, &makers[2],
                                     maker_arg, &makers[3], maker_arg, &makers[4], maker_arg, &makers[5],
                                     maker_arg, &makers[6], maker_arg, &makers[7], &number_value, &fallback,
                                     &anchors_of))
        return NULL;
    if (classes.len != 128) {
        PyBuffer_Release(&classes);
        PyErr_SetString(PyExc_ValueError, "classes must have 128 bytes, one per ASCII character");
        return NULL;
    }
    if (negation_len < 1 || negation_len > MAX_WORD || equals_len < 1 || equals_len > MAX_WORD) {
        PyBuffer_Release(&classes);
        PyErr_SetString(PyExc_ValueError, "negation and equals must be words of 1 to 32 characters");
        return NULL;
    }
    ScannerObject *s = (ScannerObject *)type->tp_alloc(type, 0);
    if (s == NULL) {
        PyBuffer_Release(&classes);
        return NULL;
    }
    memcpy(s->classes, classes.buf, 128);
    PyBuffer_Release(&classes);
    s->comment_start = (Py_UCS4)comment_start;
    s->comment_end = (Py_UCS4)comment_end;
    s->var_prefix = (Py_UCS4)var_prefix;
    s->open = (Py_UCS4)open;
    s->close = (Py_UCS4)close;
    memcpy(s->negation, negation, negation_len);
    s->negation[negation_len] = 0;
    s->negation_len = negation_len;
    memcpy(s->equals, equals, equals_len);
    s->equals[equals_len] = 0;
    s->equals_len = equals_len;
    s->init_mode = init_mode;
    s->hard = Py_NewRef(hard);
    MakerObject **slots[8] = {&s->span, &s->atom, &s->not_, &s->constant, &s->variable, &s->function_term,
                              &s->init_assignment, &s->number};
    for (int k = 0; k < 8; k++)
        *slots[k] = (MakerObject *)Py_NewRef(makers[k]);
    s->number_value = Py_NewRef(number_value);
    s->fallback = Py_NewRef(fallback);
    s->anchors_of = anchors_of == NULL || anchors_of == Py_None ? NULL : Py_NewRef(anchors_of);
    return (PyObject *)s;
}

static int
scanner_traverse(ScannerObject *s, visitproc visit, void *arg)
{
    Py_VISIT(s->hard);
    Py_VISIT(s->span);
    Py_VISIT(s->atom);
    Py_VISIT(s->not_);
    Py_VISIT(s->constant);
    Py_VISIT(s->variable);
    Py_VISIT(s->function_term);
    Py_VISIT(s->init_assignment);
    Py_VISIT(s->number);
    Py_VISIT(s->number_value);
    Py_VISIT(s->fallback);
    Py_VISIT(s->anchors_of);
    return 0;
}

static int
scanner_clear(ScannerObject *s)
{
    Py_CLEAR(s->hard);
    Py_CLEAR(s->span);
    Py_CLEAR(s->atom);
    Py_CLEAR(s->not_);
    Py_CLEAR(s->constant);
    Py_CLEAR(s->variable);
    Py_CLEAR(s->function_term);
    Py_CLEAR(s->init_assignment);
    Py_CLEAR(s->number);
    Py_CLEAR(s->number_value);
    Py_CLEAR(s->fallback);
    Py_CLEAR(s->anchors_of);
    return 0;
}

static void
scanner_dealloc(ScannerObject *s)
{
    PyObject_GC_UnTrack(s);
    scanner_clear(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyTypeObject ScannerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pddltools.syntax._speedups.FlatScanner",
    .tp_doc = "FlatScanner(...)(text, pos, source) -> (nodes, end) | None: a run of flat literals or init elements",
    .tp_basicsize = sizeof(ScannerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = scanner_new,
    .tp_call = scanner_call,
    .tp_traverse = (traverseproc)scanner_traverse,
    .tp_clear = (inquiry)scanner_clear,
    .tp_dealloc = (destructor)scanner_dealloc,
};

/* ---------------------------------------------------------------------------------------------- */
/* Driver: the loop of pddltools/lalr.py (FastParser._run) over the same tables, compiled.
 *
 * Tokens come from the same terminals, run as an automaton (pddltools/syntax/dfa.py derives its tables
 * from the grammar's regular expressions) or, where the terminals are beyond one, by calling the same
 * compiled regular expression; keywords come from the same dictionaries, reductions call the same
 * callbacks, and fast paths the same scanners; only the loops and the table look-ups are C. Terminals and non-terminals are numbered by
 * the Python side, which also turns the errors returned here into its exceptions. */

#define MAX_OVERLAY 256

/* Names looked up on every token's match object, made once (in PyInit__speedups). */
static PyObject *lastindex_name, *span_name;

typedef struct {
    PyObject *callback; /* NULL: the value is the one kept child, or (as_list) the kept children */
    Py_ssize_t size;
    int origin;
    int as_list;
    Py_ssize_t nkeep;   /* -1: the callback gets every child; else it gets the `keep` ones */
    int *keep;          /* picks, as pddltools/syntax/reductions.py numbers them: i >= 0 child i,
                           -1 None (an empty `[x]`), -(i + 2) the items of child i (a list) */
} Rule;

typedef struct {
    PyObject_HEAD
    PyObject *match;         /* the pattern's bound `match` method */
    Py_ssize_t ngroups;
    int *group_terminal;     /* regular-expression group -> terminal (-1: not a token group) */
    int nterminals, nnonterminals, nstates, nrules;
    PyObject *terminal_names; /* tuple of str */
    PyObject *keywords;       /* tuple: per terminal, None or a dict word -> terminal number */
    int *action;              /* [state * nterminals + terminal]: s + 1 shift, -(r + 1) reduce, 0 error */
    int *go;                  /* [state * nnonterminals + nonterminal]: target state or -1 */
    Rule *rules;
    int error_terminal, trigger_terminal;
    Py_ssize_t nfast;
    int *fast_terminal;
    PyObject *fast_scanners;  /* tuple of callables */
    Py_ssize_t max_stack;
    int lowercase;
    MakerObject *tok;         /* Tok(type, value, start_pos, end_pos) */
    /* The same terminals as an automaton (pddltools/syntax/dfa.py), used instead of `match` where
     * given (nclasses > 0): a class per ASCII character and one for all others (index 128). */
    unsigned char classes[129];
    int nclasses, nautomaton_states, nalternatives;
    int *transitions;         /* [state * nclasses + class]: next state or -1 */
    int *accepts;             /* [state]: the earliest alternative ending there, or -1 */
    int *alternative_terminal; /* [alternative]: terminal number, or IGNORED_TEXT */
} DriverObject;

#define IGNORED_TEXT (-2)

typedef struct {
    int *items;
    Py_ssize_t size, capacity;
} Stack;

static int
stack_push(Stack *st, int state)
{
    if (st->size == st->capacity) {
        Py_ssize_t capacity = st->capacity ? st->capacity * 2 : 256;
        int *bigger = PyMem_Realloc(st->items, sizeof(int) * capacity);
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        st->items = bigger;
        st->capacity = capacity;
    }
    st->items[st->size++] = state;
    return 0;
}

/* Whether `terminal` would be shifted now, after the reductions it calls for (played on a virtual
 * stack: the real one below `height`, then `overlay`). */
static int
driver_accepts(DriverObject *d, Stack *st, int terminal)
{
    int overlay[MAX_OVERLAY];
    Py_ssize_t height = st->size, over = 0;
    for (;;) {
        int top = over ? overlay[over - 1] : st->items[height - 1];
        int a = d->action[top * d->nterminals + terminal];
        if (a == 0)
            return 0;
        if (a > 0)
            return 1;
        Rule *r = &d->rules[-a - 1];
        Py_ssize_t size = r->size;
        Py_ssize_t from_overlay = size < over ? size : over;
        over -= from_overlay;
        height -= size - from_overlay;
        if (height < 1 && over == 0)
            return 0;
        top = over ? overlay[over - 1] : st->items[height - 1];
        int target = d->go[top * d->nnonterminals + r->origin];
        if (target < 0 || over == MAX_OVERLAY)
            return 0;
        overlay[over++] = target;
    }
}

/* The children rule `r`'s callback gets, from the top `r->size` of `values` (of size `n`): what Lark's
 * child filter would pass it. A spliced list that comes first is extended in place, not copied (a
 * left-recursive `x*`): it is a value only the parser holds. */
static PyObject *
pick_children(Rule *r, PyObject *values, Py_ssize_t n)
{
    PyObject **top = &PyList_GET_ITEM(values, n - r->size);
    PyObject *out = NULL;
    Py_ssize_t j = 0;
    if (r->nkeep > 0 && r->keep[0] < -1) {
        out = Py_NewRef(top[-r->keep[0] - 2]);
        if (!PyList_CheckExact(out)) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_TypeError, "a spliced child is not a list");
            return NULL;
        }
        j = 1;
    } else {
        Py_ssize_t plain = 0;
        for (Py_ssize_t i = 0; i < r->nkeep; i++)
            plain += r->keep[i] >= -1;
        if (plain == r->nkeep) { /* no splicing: the list has its final size now */
            out = PyList_New(r->nkeep);
            if (out == NULL)
                return NULL;
            for (Py_ssize_t i = 0; i < r->nkeep; i++) {
                int k = r->keep[i];
                PyList_SET_ITEM(out, i, Py_NewRef(k < 0 ? Py_None : top[k]));
            }
            return out;
        }
        out = PyList_New(0);
        if (out == NULL)
            return NULL;
    }
    for (; j < r->nkeep; j++) {
        int k = r->keep[j];
        int failed;
        if (k >= -1)
            failed = PyList_Append(out, k < 0 ? Py_None : top[k]);
        else if (PyList_CheckExact(top[-k - 2]))
            failed = PyList_SetSlice(out, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, top[-k - 2]);
        else {
            PyErr_SetString(PyExc_TypeError, "a spliced child is not a list");
            failed = -1;
        }
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* Shifts `token` of `terminal` after the reductions it calls for. 0 on success; 1 if the parser
 * cannot take it (its state is then on top of the stack); -1 on a Python error. */
static int
driver_feed(DriverObject *d, Stack *st, PyObject *values, int terminal, PyObject *token)
{
    for (;;) {
        int top = st->items[st->size - 1];
        int a = d->action[top * d->nterminals + terminal];
        if (a == 0)
            return 1;
        if (a > 0) {
            if (stack_push(st, a - 1) < 0)
                return -1;
            return PyList_Append(values, token);
        }
        Rule *r = &d->rules[-a - 1];
        if (r->callback == NULL && !r->as_list && r->nkeep < 0) {
            st->items[st->size - 1] = d->go[st->items[st->size - 2] * d->nnonterminals + r->origin];
            continue;
        }
        Py_ssize_t n = PyList_GET_SIZE(values);
        PyObject *children;
        if (r->nkeep >= 0) {
            children = pick_children(r, values, n);
            if (children == NULL)
                return -1;
            if (r->size) {
                if (PyList_SetSlice(values, n - r->size, n, NULL) < 0) {
                    Py_DECREF(children);
                    return -1;
                }
                st->size -= r->size;
            }
        } else if (r->size) {
            children = PyList_GetSlice(values, n - r->size, n);
            if (children == NULL || PyList_SetSlice(values, n - r->size, n, NULL) < 0) {
                Py_XDECREF(children);
                return -1;
            }
            st->size -= r->size;
        } else {
            children = PyList_New(0);
            if (children == NULL)
                return -1;
        }
        PyObject *value;
        if (r->callback != NULL)
            value = PyObject_CallOneArg(r->callback, children);
        else
            value = Py_NewRef(r->as_list ? children : PyList_GET_ITEM(children, 0));
        Py_DECREF(children);
        if (value == NULL)
            return -1;
        int failed = PyList_Append(values, value);
        Py_DECREF(value);
        if (failed || stack_push(st, d->go[st->items[st->size - 1] * d->nnonterminals + r->origin]) < 0)
            return -1;
    }
}

static PyObject *
make_token(DriverObject *d, int terminal, PyObject *value, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *args[4] = {PyTuple_GET_ITEM(d->terminal_names, terminal), value, PyLong_FromSsize_t(start),
                         PyLong_FromSsize_t(end)};
    PyObject *token = NULL;
    if (args[2] != NULL && args[3] != NULL)
        token = maker_build(d->tok, args, 4);
    Py_XDECREF(args[2]);
    Py_XDECREF(args[3]);
    return token;
}

static PyObject *
stack_list(Stack *st)
{
    PyObject *list = PyList_New(st->size);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < st->size; i++) {
        PyObject *state = PyLong_FromLong(st->items[i]);
        if (state == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, state);
    }
    return list;
}

/* The lower-cased copy of an ASCII string; other strings go through str.lower. */
static PyObject *
lower_copy(PyObject *value)
{
    if (!PyUnicode_IS_ASCII(value))
        return PyObject_CallMethod(value, "lower", NULL);
    Py_ssize_t n = PyUnicode_GET_LENGTH(value);
    const Py_UCS1 *in = PyUnicode_1BYTE_DATA(value);
    Py_ssize_t i = 0;
    while (i < n && !(in[i] >= 'A' && in[i] <= 'Z'))
        i++;
    if (i == n)
        return Py_NewRef(value);
    PyObject *out = PyUnicode_New(n, 127);
    if (out == NULL)
        return NULL;
    Py_UCS1 *o = PyUnicode_1BYTE_DATA(out);
    for (i = 0; i < n; i++)
        o[i] = (in[i] >= 'A' && in[i] <= 'Z') ? in[i] + 32 : in[i];
    return out;
}

/* The next token at or after `pos`, its ignored prefix skipped, by the regular expression: 1 with
 * *terminal, *begin and *end set (the error terminal where no terminal matches: at *begin == n the end
 * of the text); -1 on a Python error. */
static int
match_token(DriverObject *d, PyObject *text, Py_ssize_t pos, int *terminal, Py_ssize_t *begin, Py_ssize_t *end)
{
    PyObject *pos_obj = PyLong_FromSsize_t(pos);
    if (pos_obj == NULL)
        return -1;
    PyObject *call_args[2] = {text, pos_obj};
    PyObject *m = PyObject_Vectorcall(d->match, call_args, 2, NULL);
    Py_DECREF(pos_obj);
    if (m == NULL)
        return -1;
    if (m == Py_None) {
        /* the pattern's error alternative matches anything, the end of text included */
        Py_DECREF(m);
        PyErr_SetString(PyExc_RuntimeError, "the token pattern did not match");
        return -1;
    }
    PyObject *last = PyObject_GetAttr(m, lastindex_name);
    if (last == NULL) {
        Py_DECREF(m);
        return -1;
    }
    Py_ssize_t group = PyLong_AsSsize_t(last);
    if (group < 0 || group >= d->ngroups || d->group_terminal[group] < 0) {
        Py_DECREF(last);
        Py_DECREF(m);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "a token matched no terminal's group");
        return -1;
    }
    *terminal = d->group_terminal[group];
    PyObject *span = PyObject_CallMethodOneArg(m, span_name, last);
    Py_DECREF(last);
    Py_DECREF(m);
    if (span == NULL)
        return -1;
    *begin = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
    *end = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
    Py_DECREF(span);
    return 1;
}

/* match_token by the automaton: the earliest alternative that matches wins, with its longest match
 * (the regular expression's first-match rule); ignored text is skipped. Cannot fail. */
static int
automaton_token(DriverObject *d, int kind, const void *data, Py_ssize_t n, Py_ssize_t pos, int *terminal,
                Py_ssize_t *begin, Py_ssize_t *end)
{
    const int nclasses = d->nclasses;
    for (;;) {
        int state = 0, best = d->nalternatives;
        Py_ssize_t best_end = -1;
        for (Py_ssize_t i = pos; i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            state = d->transitions[state * nclasses + d->classes[c < 128 ? c : 128]];
            if (state < 0)
                break;
            int alternative = d->accepts[state];
            if (alternative >= 0 && alternative <= best) {
                best = alternative;
                best_end = i + 1;
            }
        }
        if (best_end < 0) { /* nothing matches here: an unexpected character, or the end */
            *terminal = d->error_terminal;
            *begin = pos;
            *end = pos < n ? pos + 1 : n;
            return 1;
        }
        if (d->alternative_terminal[best] == IGNORED_TEXT) {
            pos = best_end;
            continue;
        }
        *terminal = d->alternative_terminal[best];
        *begin = pos;
        *end = best_end;
        return 1;
    }
}

/* run(text, start_state, source, lower_each) -> (stack, values, error): the loop of FastParser._run.
 * error is None, ("token", state, terminal, value, start, end), ("character", offset, text) or
 * ("nesting", offset). */
static PyObject *
driver_run(PyObject *self, PyObject *args)
{
    DriverObject *d = (DriverObject *)self;
    PyObject *text, *source;
    int start_state, lower_each;
    if (!PyArg_ParseTuple(args, "UiOp:run", &text, &start_state, &source, &lower_each))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Stack st = {NULL, 0, 0};
    PyObject *values = PyList_New(0), *error = NULL, *result = NULL;
    if (values == NULL || stack_push(&st, start_state) < 0)
        goto done;
    Py_ssize_t pos = 0;
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (;;) {
        int terminal;
        Py_ssize_t begin, end;
        if ((d->nclasses > 0 ? automaton_token(d, kind, data, n, pos, &terminal, &begin, &end)
                             : match_token(d, text, pos, &terminal, &begin, &end)) < 0)
            goto done;
        if (terminal == d->error_terminal) {
            if (begin == n)
                break;
            PyObject *character = PyUnicode_Substring(text, begin, begin + 1);
            error = character == NULL ? NULL : Py_BuildValue("(snN)", "character", begin, character);
            goto done;
        }
        if (terminal == d->trigger_terminal) {
            if (st.size > d->max_stack) {
                error = Py_BuildValue("(sn)", "nesting", begin);
                goto done;
            }
            int fed = 0;
            for (Py_ssize_t k = 0; k < d->nfast && !fed; k++) {
                if (!driver_accepts(d, &st, d->fast_terminal[k]))
                    continue;
                PyObject *found = PyObject_CallFunction(PyTuple_GET_ITEM(d->fast_scanners, k), "OnO", text, begin,
                                                        source);
                if (found == NULL)
                    goto done;
                if (found == Py_None) {
                    Py_DECREF(found);
                    continue;
                }
                Py_ssize_t restart = PyLong_AsSsize_t(PyTuple_GET_ITEM(found, 1));
                PyObject *nodes = Py_NewRef(PyTuple_GET_ITEM(found, 0));
                Py_DECREF(found);
                PyObject *token = make_token(d, d->fast_terminal[k], nodes, begin, restart);
                if (token == NULL) {
                    Py_DECREF(nodes);
                    goto done;
                }
                int status = driver_feed(d, &st, values, d->fast_terminal[k], token);
                Py_DECREF(token);
                if (status != 0) {
                    if (status > 0)
                        error = Py_BuildValue("(siiOnn)", "token", st.items[st.size - 1], d->fast_terminal[k],
                                              nodes, begin, restart);
                    Py_DECREF(nodes);
                    goto done;
                }
                Py_DECREF(nodes);
                pos = restart;
                fed = 1;
            }
            if (fed)
                continue;
        }
        PyObject *value = PyUnicode_Substring(text, begin, end);
        if (value == NULL)
            goto done;
        if (lower_each) {
            PyObject *low = lower_copy(value);
            Py_DECREF(value);
            if (low == NULL)
                goto done;
            value = low;
        }
        PyObject *table = PyTuple_GET_ITEM(d->keywords, terminal);
        if (table != Py_None) {
            PyObject *renamed = PyDict_GetItemWithError(table, value);
            if (renamed != NULL)
                terminal = (int)PyLong_AsLong(renamed);
            else if (PyErr_Occurred()) {
                Py_DECREF(value);
                goto done;
            }
        }
        PyObject *token = make_token(d, terminal, value, begin, end);
        if (token == NULL) {
            Py_DECREF(value);
            goto done;
        }
        int status = driver_feed(d, &st, values, terminal, token);
        Py_DECREF(token);
        if (status != 0) {
            if (status > 0)
                error = Py_BuildValue("(siiOnn)", "token", st.items[st.size - 1], terminal, value, begin, end);
            Py_DECREF(value);
            goto done;
        }
        Py_DECREF(value);
        pos = end;
    }
    error = Py_NewRef(Py_None);
done:
    if (error != NULL && !PyErr_Occurred()) {
        PyObject *stack = stack_list(&st);
        if (stack != NULL)
            result = Py_BuildValue("(NON)", stack, values, error);
        else
            Py_DECREF(error);
    } else {
        Py_XDECREF(error);
    }
    Py_XDECREF(values);
    PyMem_Free(st.items);
    return result;
}


static int *
int_table(PyObject *buffer_owner, Py_ssize_t expected, const char *what)
{
    Py_buffer view;
    if (PyObject_GetBuffer(buffer_owner, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != (Py_ssize_t)sizeof(int) * expected) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "%s has the wrong size", what);
        return NULL;
    }
    int *table = PyMem_Malloc(view.len ? view.len : 1);
    if (table == NULL) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(table, view.buf, view.len);
    PyBuffer_Release(&view);
    return table;
}

/* automaton = (classes, nclasses, transitions, accepts, alternative_terminals), as
 * pddltools/syntax/lalr.py packs a dfa.Automaton; every entry is checked, so that the lexer's loop
 * needs no bounds checks. 0 on success, -1 with an exception set. */
static int
driver_set_automaton(DriverObject *d, PyObject *automaton)
{
    PyObject *classes, *transitions, *accepts, *terminals;
    int nclasses;
    if (!PyArg_ParseTuple(automaton, "O!iOOO!:automaton", &PyBytes_Type, &classes, &nclasses, &transitions, &accepts,
                          &PyTuple_Type, &terminals))
        return -1;
    Py_buffer view;
    if (PyObject_GetBuffer(accepts, &view, PyBUF_SIMPLE) < 0)
        return -1;
    Py_ssize_t nstates = view.len / (Py_ssize_t)sizeof(int);
    PyBuffer_Release(&view);
    if (PyBytes_GET_SIZE(classes) != 129 || nclasses < 1 || nstates < 1) {
        PyErr_SetString(PyExc_ValueError, "automaton: 129 classes, at least one class and one state");
        return -1;
    }
    d->nalternatives = (int)PyTuple_GET_SIZE(terminals);
    d->accepts = int_table(accepts, nstates, "accepts");
    d->transitions = d->accepts == NULL ? NULL : int_table(transitions, nstates * nclasses, "transitions");
    d->alternative_terminal = PyMem_Malloc(sizeof(int) * (d->nalternatives + 1));
    if (d->transitions == NULL || d->alternative_terminal == NULL) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    memcpy(d->classes, PyBytes_AS_STRING(classes), 129);
    for (int c = 0; c < 129; c++)
        if (d->classes[c] >= nclasses)
            goto invalid;
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++)
        if (d->transitions[i] < -1 || d->transitions[i] >= nstates)
            goto invalid;
    for (Py_ssize_t i = 0; i < nstates; i++)
        if (d->accepts[i] < -1 || d->accepts[i] >= d->nalternatives)
            goto invalid;
    for (int i = 0; i < d->nalternatives; i++) {
        long t = PyLong_AsLong(PyTuple_GET_ITEM(terminals, i));
        if (t == -1 && PyErr_Occurred())
            return -1;
        if ((t < 0 && t != IGNORED_TEXT) || t >= d->nterminals || t == d->error_terminal)
            goto invalid;
        d->alternative_terminal[i] = (int)t;
    }
    d->nautomaton_states = (int)nstates;
    d->nclasses = nclasses;
    return 0;
invalid:
    PyErr_SetString(PyExc_ValueError, "automaton: an entry out of range");
    return -1;
}

static PyObject *
driver_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"match", "group_terminals", "terminal_names", "keywords", "nstates", "action",
                               "nnonterminals", "goto", "rules", "error_terminal", "trigger_terminal", "fast_paths",
                               "max_stack", "token", "automaton", NULL};
    PyObject *match, *groups, *names, *kw, *action, *go, *rules, *fast, *tok, *automaton = Py_None;
    int nstates, nnonterminals, error_terminal, trigger_terminal;
    Py_ssize_t max_stack;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO!O!O!iOiOO!iiO!nO&|O:Driver", keywords, &match, &PyTuple_Type,
                                     &groups, &PyTuple_Type, &names, &PyTuple_Type, &kw, &nstates, &action,
                                     &nnonterminals, &go, &PyTuple_Type, &rules, &error_terminal, &trigger_terminal,
                                     &PyTuple_Type, &fast, &max_stack, maker_arg, &tok, &automaton))
        return NULL;
    int nterminals = (int)PyTuple_GET_SIZE(names);
    if (PyTuple_GET_SIZE(kw) != nterminals) {
        PyErr_SetString(PyExc_ValueError, "one keyword table per terminal");
        return NULL;
    }
    DriverObject *d = (DriverObject *)type->tp_alloc(type, 0);
    if (d == NULL)
        return NULL;
    d->match = Py_NewRef(match);
    d->terminal_names = Py_NewRef(names);
    d->keywords = Py_NewRef(kw);
    d->tok = (MakerObject *)Py_NewRef(tok);
    d->nterminals = nterminals;
    d->nnonterminals = nnonterminals;
    d->nstates = nstates;
    d->error_terminal = error_terminal;
    d->trigger_terminal = trigger_terminal;
    d->max_stack = max_stack;
    d->ngroups = PyTuple_GET_SIZE(groups);
    d->group_terminal = PyMem_Malloc(sizeof(int) * (d->ngroups + 1));
    d->nrules = (int)PyTuple_GET_SIZE(rules);
    d->rules = PyMem_Calloc(d->nrules + 1, sizeof(Rule));
    d->nfast = PyTuple_GET_SIZE(fast);
    d->fast_terminal = PyMem_Malloc(sizeof(int) * (d->nfast + 1));
    d->fast_scanners = PyTuple_New(d->nfast);
    if (d->group_terminal == NULL || d->rules == NULL || d->fast_terminal == NULL || d->fast_scanners == NULL) {
        Py_DECREF(d);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < d->ngroups; i++)
        d->group_terminal[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(groups, i));
    for (int i = 0; i < d->nrules; i++) {
        PyObject *rule = PyTuple_GET_ITEM(rules, i);
        PyObject *callback, *keep;
        d->rules[i].nkeep = -1;
        if (!PyArg_ParseTuple(rule, "OniOp", &callback, &d->rules[i].size, &d->rules[i].origin, &keep,
                              &d->rules[i].as_list)) {
            Py_DECREF(d);
            return NULL;
        }
        d->rules[i].callback = callback == Py_None ? NULL : Py_NewRef(callback);
        if (keep != Py_None) {
            Py_ssize_t nkeep = PyTuple_Check(keep) ? PyTuple_GET_SIZE(keep) : -1;
            int valid = nkeep >= 0 && (callback != Py_None || nkeep == 1 || d->rules[i].as_list);
            d->rules[i].keep = valid ? PyMem_Malloc(sizeof(int) * (nkeep + 1)) : NULL;
            if (d->rules[i].keep == NULL) {
                Py_DECREF(d);
                if (valid)
                    return PyErr_NoMemory();
                PyErr_SetString(PyExc_ValueError, "keep: None or a tuple of child indices (one without a callback)");
                return NULL;
            }
            d->rules[i].nkeep = nkeep;
            for (Py_ssize_t j = 0; j < nkeep; j++) {
                long k = PyLong_AsLong(PyTuple_GET_ITEM(keep, j));
                if (k < -1 - d->rules[i].size || k >= d->rules[i].size) {
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_ValueError, "keep: a child index out of the rule's range");
                    Py_DECREF(d);
                    return NULL;
                }
                d->rules[i].keep[j] = (int)k;
            }
            if (callback == Py_None && !d->rules[i].as_list && d->rules[i].keep[0] < -1) {
                PyErr_SetString(PyExc_ValueError, "a rule without a callback passes one child through, not a list");
                Py_DECREF(d);
                return NULL;
            }
        } else if (callback == Py_None && !d->rules[i].as_list && d->rules[i].size != 1) {
            PyErr_SetString(PyExc_ValueError, "a rule without a callback passes its one child through");
            Py_DECREF(d);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < d->nfast; i++) {
        PyObject *scanner;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fast, i), "iO", &d->fast_terminal[i], &scanner)) {
            Py_DECREF(d);
            return NULL;
        }
        PyTuple_SET_ITEM(d->fast_scanners, i, Py_NewRef(scanner));
    }
    d->action = int_table(action, (Py_ssize_t)nstates * nterminals, "action");
    d->go = d->action == NULL ? NULL : int_table(go, (Py_ssize_t)nstates * nnonterminals, "goto");
    if (d->go == NULL || PyErr_Occurred() || (automaton != Py_None && driver_set_automaton(d, automaton) < 0)) {
        Py_DECREF(d);
        return NULL;
    }
    return (PyObject *)d;
}

static int
driver_traverse(DriverObject *d, visitproc visit, void *arg)
{
    Py_VISIT(d->match);
    Py_VISIT(d->terminal_names);
    Py_VISIT(d->keywords);
    Py_VISIT(d->fast_scanners);
    Py_VISIT(d->tok);
    if (d->rules != NULL)
        for (int i = 0; i < d->nrules; i++)
            Py_VISIT(d->rules[i].callback);
    return 0;
}

static int
driver_clear(DriverObject *d)
{
    Py_CLEAR(d->match);
    Py_CLEAR(d->terminal_names);
    Py_CLEAR(d->keywords);
    Py_CLEAR(d->fast_scanners);
    Py_CLEAR(d->tok);
    if (d->rules != NULL)
        for (int i = 0; i < d->nrules; i++)
            Py_CLEAR(d->rules[i].callback);
    return 0;
}

static void
driver_dealloc(DriverObject *d)
{
    PyObject_GC_UnTrack(d);
    driver_clear(d);
    PyMem_Free(d->group_terminal);
    if (d->rules != NULL)
        for (int i = 0; i < d->nrules; i++)
            PyMem_Free(d->rules[i].keep);
    PyMem_Free(d->rules);
    PyMem_Free(d->fast_terminal);
    PyMem_Free(d->action);
    PyMem_Free(d->go);
    PyMem_Free(d->transitions);
    PyMem_Free(d->accepts);
    PyMem_Free(d->alternative_terminal);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

static PyMethodDef driver_methods[] = {
    {"run", driver_run, METH_VARARGS,
     "run(text, start_state, source, lower_each) -> (stack, values, error): lex, shift and reduce a whole text"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DriverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pddltools.syntax._speedups.Driver",
    .tp_doc = "Driver(...): the LALR loop of pddltools.syntax.lalr.FastParser over its tables",
    .tp_basicsize = sizeof(DriverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = driver_new,
    .tp_methods = driver_methods,
    .tp_traverse = (traverseproc)driver_traverse,
    .tp_clear = (inquiry)driver_clear,
    .tp_dealloc = (destructor)driver_dealloc,
};

/* ---------------------------------------------------------------------------------------------- */

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pddltools.syntax._speedups",
    .m_doc = "Compiled hot paths of the PDDL parser (optional: pddltools runs the same code in Python without it).",
    .m_size = -1,
    .m_methods = speedups_functions,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&MakerType) < 0 || PyType_Ready(&ScannerType) < 0 || PyType_Ready(&DriverType) < 0
        || PyType_Ready(&SpanOfType) < 0)
        return NULL;
    lastindex_name = PyUnicode_InternFromString("lastindex");
    span_name = PyUnicode_InternFromString("span");
    if (lastindex_name == NULL || span_name == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&speedups_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Maker", (PyObject *)&MakerType) < 0
        || PyModule_AddObjectRef(m, "FlatScanner", (PyObject *)&ScannerType) < 0
        || PyModule_AddObjectRef(m, "Driver", (PyObject *)&DriverType) < 0
        || PyModule_AddObjectRef(m, "SpanOf", (PyObject *)&SpanOfType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
