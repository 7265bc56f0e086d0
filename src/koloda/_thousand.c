/* Thousand's trick play in C (koloda._thousand): a compact position, its legal moves and moves, and an
 * exact solver of the rest of the deal on one world (every hand known).
 *
 * The reference is the Python engine: koloda/thousand/rules.py says what is legal and what a move does
 * (rules G9-G12), and koloda/thousand/solver.py is this module line for line in Python (the fallback where
 * no C compiler built it). tests/thousand/test_solver_lockstep.py plays many deals through the engine and
 * through both twins at once and compares the legal moves, the positions and the solved values at every
 * step.
 *
 * A position is a tuple of 16 ints, the three seats in play numbered 0, 1, 2 in playing order (the
 * Python side maps them to the table's seats; a fourth player, the dealer, sits out of the play):
 *
 *   h0 h1 h2        the hands, bitmasks of card ids 0-23 (suit * 6 + face; faces 9 10 J Q K A)
 *   count c0 c1     the cards of the trick being played so far (0-2 of them; -1 where none)
 *   to_move         the seat to play
 *   trump           the trump suit, -1 before any marriage
 *   decl            the declarer
 *   t0 t1 t2        card points taken in tricks by each seat
 *   m0 m1 m2        marriage points declared by each seat
 *   won             a bit per seat that has taken a trick (rule G9: a marriage needs one)
 *
 * The rules and the objective are a tuple of 10 ints:
 *
 *   must_beat       0 no duty, 1 beat the card led, 2 beat the winning card (rule G12)
 *   needs_trick     1: a marriage is declared only by a seat that has taken a trick (rule G9)
 *   optional        1: a held marriage may be led without declaring it (rule G9)
 *   ace             1: the ace marriage is on (rule G10)
 *   bid step        the objective's step: ``step`` when the declarer's points (cards and marriages) reach
 *                   ``bid``
 *   wd w0 w1 w2     the objective's weights: + wd per point of the declarer, - wX per point of seat X
 *                   (the declarer's own wX is not used)
 *
 * The solver's value of a finished deal is  step * [decl points >= bid] + wd * decl points
 * - sum over the defenders of wX * their points; the declarer maximises it and the defenders minimise it
 * (they play as one side). It is additive trick by trick except for the step, so a transposition table
 * at the start of each trick stores the value still to come, keyed by the hands, the leader, the trump,
 * who has taken a trick, and the points the declarer still needs for the step.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MARRY 24
#define ACES 32
#define INF (1 << 24)
#define DOOMED 1023

static const int POINTS[24] = {0, 10, 2, 3, 4, 11, 0, 10, 2, 3, 4, 11, 0, 10, 2, 3, 4, 11, 0, 10, 2, 3, 4, 11};
static const int STRENGTH[24] = {0, 4, 1, 2, 3, 5, 0, 4, 1, 2, 3, 5, 0, 4, 1, 2, 3, 5, 0, 4, 1, 2, 3, 5};
static const int MARRIAGE[4] = {40, 60, 80, 100};
#define ACE_MARRIAGE 200
#define ALL_ACES ((1u << 5) | (1u << 11) | (1u << 17) | (1u << 23))

typedef struct {
    uint32_t hand[3];
    int count, c[2], to_move, trump, decl;
    int taken[3], marr[3];
    int won;
} Pos;

typedef struct {
    int must_beat, needs_trick, optional, ace;
    int bid, step, wd, w[3];
} Rules;

/* -- the rules of play ------------------------------------------------------------------------------ */

static int beats(int card, int target, int trump) {
    if (card / 6 == target / 6) return STRENGTH[card] > STRENGTH[target];
    return card / 6 == trump;
}

static int card_of(int action) {
    if (action < MARRY) return action;
    if (action < ACES) return (action - MARRY) / 2 * 6 + 3 + (action - MARRY) % 2;
    return (action - ACES) * 6 + 5;
}

/* The legal actions of the seat to move, ascending, as rules.py's _legal_play gives them. */
static int gen(const Pos *p, const Rules *r, int *out) {
    int seat = p->to_move, n = 0;
    uint32_t hand = p->hand[seat];
    if (p->count == 0) {
        int declare = (p->won >> seat & 1) || !r->needs_trick;
        uint32_t skip = 0;
        int extra[12], k = 0;
        if (declare) {
            for (int s = 0; s < 4; s++) {
                if ((hand >> (s * 6 + 3) & 1) && (hand >> (s * 6 + 4) & 1)) {
                    extra[k++] = MARRY + 2 * s;
                    extra[k++] = MARRY + 2 * s + 1;
                    if (!r->optional) skip |= (1u << (s * 6 + 3)) | (1u << (s * 6 + 4));
                }
            }
            if (r->ace && (hand & ALL_ACES) == ALL_ACES) {
                for (int s = 0; s < 4; s++) extra[k++] = ACES + s;
            }
        }
        for (uint32_t bits = hand & ~skip; bits; bits &= bits - 1) out[n++] = __builtin_ctz(bits);
        for (int i = 0; i < k; i++) out[n++] = extra[i];
        return n;
    }
    int lead = p->c[0] / 6;
    uint32_t pool = hand & (63u << (lead * 6));
    if (!pool) {
        uint32_t trumps = p->trump >= 0 ? hand & (63u << (p->trump * 6)) : 0;
        pool = trumps ? trumps : hand;
    }
    if (r->must_beat) {
        int target = p->c[0];
        if (r->must_beat == 2 && p->count == 2 && beats(p->c[1], target, p->trump)) target = p->c[1];
        uint32_t beating = 0;
        for (uint32_t bits = pool; bits; bits &= bits - 1) {
            int c = __builtin_ctz(bits);
            if (beats(c, target, p->trump)) beating |= 1u << c;
        }
        if (beating) pool = beating;
    }
    for (uint32_t bits = pool; bits; bits &= bits - 1) out[n++] = __builtin_ctz(bits);
    return n;
}

/* Play ``action`` (legal) in place: rules.py's _play. */
static void play(Pos *p, int action) {
    int seat = p->to_move, card = card_of(action);
    if (action >= MARRY && action < ACES) {
        int suit = (action - MARRY) / 2;
        p->trump = suit;
        p->marr[seat] += MARRIAGE[suit];
    } else if (action >= ACES) {
        p->marr[seat] += ACE_MARRIAGE;
    }
    p->hand[seat] &= ~(1u << card);
    if (p->count < 2) {
        p->c[p->count++] = card;
        p->to_move = (seat + 1) % 3;
        return;
    }
    int leader = (seat + 1) % 3; /* the third card: the leader is the next seat */
    int cards[3] = {p->c[0], p->c[1], card};
    int best = 0;
    for (int i = 1; i < 3; i++) {
        if (beats(cards[i], cards[best], p->trump)) best = i;
    }
    int winner = (leader + best) % 3;
    p->taken[winner] += POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]];
    p->won |= 1 << winner;
    p->count = 0;
    p->c[0] = p->c[1] = -1;
    p->to_move = winner;
}

/* -- the solver ------------------------------------------------------------------------------------- */

static int over(const Pos *p) { return p->count == 0 && !(p->hand[0] | p->hand[1] | p->hand[2]); }

static int linear(const Pos *p, const Rules *r) {
    int v = r->wd * (p->taken[p->decl] + p->marr[p->decl]);
    for (int x = 0; x < 3; x++) {
        if (x != p->decl) v -= r->w[x] * (p->taken[x] + p->marr[x]);
    }
    return v;
}

static int leaf(const Pos *p, const Rules *r) {
    int own = p->taken[p->decl] + p->marr[p->decl];
    return (own >= r->bid ? r->step : 0) + linear(p, r);
}

/* Points the declarer still needs for the step, clipped: 0 once reached, DOOMED when out of reach. */
static int need(const Pos *p, const Rules *r) {
    if (r->step == 0) return 0;
    int n = r->bid - p->taken[p->decl] - p->marr[p->decl];
    if (n <= 0) return 0;
    int most = 0;
    for (uint32_t bits = p->hand[0] | p->hand[1] | p->hand[2]; bits; bits &= bits - 1) {
        most += POINTS[__builtin_ctz(bits)];
    }
    uint32_t mine = p->hand[p->decl];
    for (int s = 0; s < 4; s++) {
        if ((mine >> (s * 6 + 3) & 1) && (mine >> (s * 6 + 4) & 1)) most += MARRIAGE[s];
    }
    if (r->ace && (mine & ALL_ACES) == ALL_ACES) most += ACE_MARRIAGE;
    return n > most ? DOOMED : n;
}

typedef struct {
    uint32_t h[3];
    uint32_t meta;
    uint32_t gen;
    int32_t lo, hi;
    int8_t best;
} Entry;

#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
static Entry *table = NULL;

static uint32_t generation = 0;
static unsigned long long nodes = 0;

static uint32_t meta_of(const Pos *p, const Rules *r) {
    return (uint32_t)(p->to_move | (p->trump + 1) << 2 | p->won << 5 | need(p, r) << 8);
}

static Entry *slot(const Pos *p, uint32_t meta) {
    uint64_t k = (uint64_t)p->hand[0] * 0x9E3779B97F4A7C15ull;
    k ^= (uint64_t)p->hand[1] * 0xC2B2AE3D27D4EB4Full + (k >> 29);
    k ^= (uint64_t)p->hand[2] * 0x165667B19E3779F9ull + (k >> 31);
    k ^= (uint64_t)meta * 0x27D4EB2F165667C5ull;
    k ^= k >> 33;
    return &table[k & (TT_SIZE - 1)];
}

/* Order moves: the table's best first, then by a cheap guess of their worth to the seat playing. */
static void order(const Pos *p, int *moves, int n, int first) {
    int score[24];
    int seat = p->to_move, decl_side = seat == p->decl;
    int win_card = -1, win_seat = -1;
    if (p->count) {
        int leader = (seat + 3 - p->count) % 3;
        win_card = p->c[0];
        win_seat = leader;
        if (p->count == 2 && beats(p->c[1], p->c[0], p->trump)) {
            win_card = p->c[1];
            win_seat = (leader + 1) % 3;
        }
    }
    for (int i = 0; i < n; i++) {
        int a = moves[i], c = card_of(a), s;
        if (a == first) {
            s = 1000000;
        } else if (p->count == 0) {
            s = (a >= MARRY ? 5000 + (a >= ACES ? 200 : MARRIAGE[(a - MARRY) / 2]) : 0) + STRENGTH[c] * 10 + POINTS[c];
        } else {
            int trump = p->trump;
            int friend_wins = !decl_side && win_seat != p->decl;
            if (beats(c, win_card, trump)) {
                s = friend_wins ? 100 - STRENGTH[c] : 2000 - STRENGTH[c] * 10 + POINTS[c];
            } else {
                s = friend_wins ? 500 + POINTS[c] : 100 - POINTS[c] * 4 - STRENGTH[c];
            }
        }
        score[i] = s;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, best first */
        int a = moves[i], s = score[i], j = i - 1;
        while (j >= 0 && score[j] < s) {
            moves[j + 1] = moves[j];
            score[j + 1] = score[j];
            j--;
        }
        moves[j + 1] = a;
        score[j + 1] = s;
    }
}

static int search(const Pos *p, const Rules *r, int alpha, int beta) {
    nodes++;
    Entry *e = NULL;
    uint32_t meta = 0;
    int base = 0, first = -1, alpha0 = alpha, beta0 = beta;
    if (p->count == 0) {
        if (!(p->hand[0] | p->hand[1] | p->hand[2])) return leaf(p, r);
        base = linear(p, r);
        meta = meta_of(p, r);
        e = slot(p, meta);
        if (e->gen == generation && e->meta == meta && e->h[0] == p->hand[0] && e->h[1] == p->hand[1] &&
            e->h[2] == p->hand[2]) {
            int lo = e->lo + base, hi = e->hi + base;
            if (lo == hi) return lo;
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
            first = e->best;
        }
    }
    int moves[24];
    int n = gen(p, r, moves);
    order(p, moves, n, first);
    int maximise = p->to_move == p->decl;
    int best = maximise ? -INF : INF, best_move = moves[0];
    for (int i = 0; i < n; i++) {
        Pos child = *p;
        play(&child, moves[i]);
        int v;
        if (child.count == 0 && !(child.hand[0] | child.hand[1] | child.hand[2])) {
            nodes++;
            v = leaf(&child, r);
        } else {
            v = search(&child, r, alpha, beta);
        }
        if (maximise ? v > best : v < best) {
            best = v;
            best_move = moves[i];
        }
        if (maximise) {
            if (best > alpha) alpha = best;
        } else if (best < beta) {
            beta = best;
        }
        if (alpha >= beta) break;
    }
    if (e != NULL) {
        int lo = -INF, hi = INF;
        if (best <= alpha0) {
            hi = best; /* failed low: an upper bound */
        } else if (best >= beta0) {
            lo = best; /* failed high: a lower bound */
        } else {
            lo = hi = best;
        }
        if (e->gen == generation && e->meta == meta && e->h[0] == p->hand[0] && e->h[1] == p->hand[1] &&
            e->h[2] == p->hand[2]) {
            /* the same position: keep the tighter bounds */
            if (lo != -INF && lo - base > e->lo) e->lo = lo - base;
            if (hi != INF && hi - base < e->hi) e->hi = hi - base;
        } else {
            e->h[0] = p->hand[0];
            e->h[1] = p->hand[1];
            e->h[2] = p->hand[2];
            e->meta = meta;
            e->gen = generation;
            e->lo = lo == -INF ? -INF : lo - base;
            e->hi = hi == INF ? INF : hi - base;
        }
        e->best = (int8_t)best_move;
    }
    return best;
}

/* The exact value by null-window searches converging from ``guess`` (MTD(f)): each pass is cheap, and the
 * table keeps what every pass learnt. */
static int mtdf(const Pos *p, const Rules *r, int guess) {
    int g = guess, lo = -INF, hi = INF;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        g = search(p, r, beta - 1, beta);
        if (g < beta) {
            hi = g;
        } else {
            lo = g;
        }
    }
    return g;
}

static int value_of(const Pos *p, const Rules *r, int guess) {
    if (over(p)) return leaf(p, r);
    return mtdf(p, r, guess);
}

/* -- the playout policy ------------------------------------------------------------------------------ */

static int left_max(const Pos *p) {
    int a = __builtin_popcount(p->hand[0]), b = __builtin_popcount(p->hand[1]), c = __builtin_popcount(p->hand[2]);
    int m = a > b ? a : b;
    return m > c ? m : c;
}

/* Whether the seat after ``p->to_move`` could beat ``card`` if it were played now (full information). */
static int next_beats(const Pos *p, const Rules *r, int action, int target_card) {
    Pos child = *p;
    play(&child, action);
    if (child.count == 0) return 0; /* the trick is over */
    int moves[24];
    int n = gen(&child, r, moves);
    for (int i = 0; i < n; i++) {
        if (beats(moves[i], target_card, child.trump)) return 1;
    }
    return 0;
}

/* Lexicographic keys packed into one int: the move with the smallest key is chosen. */
#define KEY(a, b, c, d) (((a) << 18) | ((b) << 12) | ((c) << 6) | (d))

/* Whether the last seat of this trick could beat ``card`` whatever the seat to move plays (its legal
 * replies after the seat's weakest card). */
static int next_beats_any(const Pos *p, const Rules *r, int card) {
    int moves[24];
    int n = gen(p, r, moves);
    int weakest = moves[0], key = 1 << 30;
    for (int i = 0; i < n; i++) {
        int c = moves[i], k = KEY(POINTS[c], STRENGTH[c], c / 6 == p->trump, c);
        if (k < key) {
            key = k;
            weakest = c;
        }
    }
    return next_beats(p, r, weakest, card);
}

/* The playout move of a careful player who sees every hand: declare the richest marriage, cash a card no
 * one can beat, else lead cheap; following, smear points on a partner's safe trick, win a trick with the
 * cheapest card that holds it, else throw the cheapest card. Deterministic (ties: the lower id). */
static int greedy(const Pos *p, const Rules *r) {
    int moves[24];
    int n = gen(p, r, moves);
    if (n == 1) return moves[0];
    int seat = p->to_move, trump = p->trump, best = moves[0], best_key = 1 << 30;
    if (p->count == 0) {
        int marriage = -1;
        for (int i = 0; i < n; i++) {
            int a = moves[i];
            if (a < MARRY) continue;
            int value = a >= ACES ? ACE_MARRIAGE : MARRIAGE[(a - MARRY) / 2];
            int key = KEY(63 - value / 10, 0, 0, 63 - (a - MARRY));
            if (key < best_key) {
                best_key = key;
                marriage = a;
            }
        }
        if (marriage >= 0) return marriage;
        for (int i = 0; i < n; i++) { /* a card the next two cannot beat */
            int c = moves[i];
            Pos after = *p;
            play(&after, c);
            int safe = 1;
            for (int k = 0; k < 2 && safe; k++) {
                int replies[24];
                int m = gen(&after, r, replies);
                for (int j = 0; j < m; j++) {
                    if (beats(replies[j], c, after.trump)) safe = 0;
                }
                if (safe) { /* the weakest reply, to look at the last seat too */
                    Pos next = after;
                    play(&next, replies[0]);
                    after = next;
                }
            }
            if (!safe) continue;
            int key = KEY(63 - POINTS[c], 63 - STRENGTH[c], 0, c);
            if (key < best_key) {
                best_key = key;
                best = c;
            }
        }
        if (best_key < (1 << 30)) return best;
        for (int i = 0; i < n; i++) {
            int c = moves[i];
            int key = KEY(POINTS[c], STRENGTH[c], c / 6 == trump, c);
            if (key < best_key) {
                best_key = key;
                best = c;
            }
        }
        return best;
    }
    int leader = (seat + 3 - p->count) % 3;
    int win_card = p->c[0], win_seat = leader;
    if (p->count == 2 && beats(p->c[1], p->c[0], trump)) {
        win_card = p->c[1];
        win_seat = (leader + 1) % 3;
    }
    int my_side = seat == p->decl, friend = win_seat != seat && (win_seat == p->decl) == my_side;
    int last = p->count == 2;
    int next_is_friend = !last && (((seat + 1) % 3 == p->decl) == my_side);
    if (friend && (last || !next_beats_any(p, r, win_card))) {
        for (int i = 0; i < n; i++) { /* smear: the richest card */
            int c = moves[i];
            int key = KEY(63 - POINTS[c], STRENGTH[c], c / 6 == trump, c);
            if (key < best_key) {
                best_key = key;
                best = c;
            }
        }
        return best;
    }
    for (int i = 0; i < n; i++) { /* win the trick with the cheapest card that holds it */
        int c = moves[i];
        if (!beats(c, win_card, trump)) continue;
        if (!last && !next_is_friend && next_beats(p, r, c, c)) continue;
        int key = KEY(c / 6 == trump, STRENGTH[c], 0, c);
        if (key < best_key) {
            best_key = key;
            best = c;
        }
    }
    if (best_key < (1 << 30)) return best;
    for (int i = 0; i < n; i++) { /* throw the cheapest card */
        int c = moves[i];
        int key = KEY(POINTS[c], STRENGTH[c], c / 6 == trump, c);
        if (key < best_key) {
            best_key = key;
            best = c;
        }
    }
    return best;
}

/* Play the greedy policy until every hand holds at most ``cards``, then solve. */
static int rollout_value(Pos *p, const Rules *r, int cards) {
    while (!over(p) && left_max(p) > cards) play(p, greedy(p, r));
    return value_of(p, r, linear(p, r));
}

/* -- Python ------------------------------------------------------------------------------------------ */

static int read_ints(PyObject *seq, int *out, Py_ssize_t size, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_Format(PyExc_ValueError, "koloda._thousand: %s must hold %zd ints", what, size);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int read_pos(PyObject *obj, Pos *p) {
    int v[16];
    if (read_ints(obj, v, 16, "a position") < 0) return -1;
    for (int i = 0; i < 3; i++) p->hand[i] = (uint32_t)v[i] & 0xFFFFFF;
    p->count = v[3];
    p->c[0] = v[4];
    p->c[1] = v[5];
    p->to_move = v[6];
    p->trump = v[7];
    p->decl = v[8];
    for (int i = 0; i < 3; i++) {
        p->taken[i] = v[9 + i];
        p->marr[i] = v[12 + i];
    }
    p->won = v[15];
    if (p->count < 0 || p->count > 2 || p->to_move < 0 || p->to_move > 2 || p->decl < 0 || p->decl > 2 ||
        p->trump < -1 || p->trump > 3 || (p->count >= 1 && (p->c[0] < 0 || p->c[0] > 23)) ||
        (p->count == 2 && (p->c[1] < 0 || p->c[1] > 23))) {
        PyErr_SetString(PyExc_ValueError, "koloda._thousand: not a position");
        return -1;
    }
    return 0;
}

static int read_rules(PyObject *obj, Rules *r) {
    int v[10];
    if (read_ints(obj, v, 10, "the rules") < 0) return -1;
    r->must_beat = v[0];
    r->needs_trick = v[1];
    r->optional = v[2];
    r->ace = v[3];
    r->bid = v[4];
    r->step = v[5];
    r->wd = v[6];
    for (int i = 0; i < 3; i++) r->w[i] = v[7 + i];
    return 0;
}

static PyObject *pos_tuple(const Pos *p) {
    return Py_BuildValue("(kkkiiiiiiiiiiiii)", (unsigned long)p->hand[0], (unsigned long)p->hand[1],
                         (unsigned long)p->hand[2], p->count, p->c[0], p->c[1], p->to_move, p->trump, p->decl,
                         p->taken[0], p->taken[1], p->taken[2], p->marr[0], p->marr[1], p->marr[2], p->won);
}


static PyObject *list_of(const int *moves, int n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(moves[i]));
    return out;
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OO", &po, &ro) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0) return NULL;
    int moves[24];
    int n = over(&p) ? 0 : gen(&p, &r, moves);
    return list_of(moves, n);
}

static int check_legal(const Pos *p, const Rules *r, int action) {
    int moves[24];
    int n = over(p) ? 0 : gen(p, r, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i] == action) return 0;
    }
    PyErr_Format(PyExc_ValueError, "koloda._thousand: action %d is not legal here", action);
    return -1;
}

static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    int action;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OOi", &po, &ro, &action) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0)
        return NULL;
    if (check_legal(&p, &r, action) < 0) return NULL;
    play(&p, action);
    return pos_tuple(&p);
}

static int ready(void) {
    if (table == NULL) {
        table = (Entry *)calloc(TT_SIZE, sizeof(Entry));
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (++generation == 0) { /* wrapped: forget every entry */
        memset(table, 0, TT_SIZE * sizeof(Entry));
        generation = 1;
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OO", &po, &ro) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0) return NULL;
    if (ready() < 0) return NULL;
    nodes = 0;
    return PyLong_FromLong(value_of(&p, &r, linear(&p, &r)));
}

static PyObject *py_solve_moves(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OO", &po, &ro) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0) return NULL;
    if (ready() < 0) return NULL;
    nodes = 0;
    int moves[24];
    int n = over(&p) ? 0 : gen(&p, &r, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    int guess = linear(&p, &r);
    for (int i = 0; i < n; i++) {
        Pos child = p;
        play(&child, moves[i]);
        int v = value_of(&child, &r, guess);
        guess = v;
        PyList_SET_ITEM(out, i, PyLong_FromLong(v));
    }
    return out;
}

static PyObject *py_greedy(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OO", &po, &ro) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0) return NULL;
    if (over(&p)) {
        PyErr_SetString(PyExc_ValueError, "koloda._thousand: the deal is over");
        return NULL;
    }
    return PyLong_FromLong(greedy(&p, &r));
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    int cards;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OOi", &po, &ro, &cards) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0)
        return NULL;
    if (ready() < 0) return NULL;
    nodes = 0;
    int moves[24];
    int n = over(&p) ? 0 : gen(&p, &r, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        Pos child = p;
        play(&child, moves[i]);
        PyList_SET_ITEM(out, i, PyLong_FromLong(rollout_value(&child, &r, cards)));
    }
    return out;
}

static PyObject *py_rollout(PyObject *self, PyObject *args) {
    PyObject *po, *ro;
    int cards;
    Pos p;
    Rules r;
    if (!PyArg_ParseTuple(args, "OOi", &po, &ro, &cards) || read_pos(po, &p) < 0 || read_rules(ro, &r) < 0)
        return NULL;
    if (ready() < 0) return NULL;
    nodes = 0;
    return PyLong_FromLong(rollout_value(&p, &r, cards));
}

static PyObject *py_nodes(PyObject *self, PyObject *args) { return PyLong_FromUnsignedLongLong(nodes); }



static PyMethodDef methods[] = {
    {"legal", py_legal, METH_VARARGS, "legal(position, rules): the legal actions, ascending."},
    {"play", py_play, METH_VARARGS, "play(position, rules, action): the position after a legal action."},
    {"solve", py_solve, METH_VARARGS, "solve(position, rules): the value of the position, played out exactly."},
    {"solve_moves", py_solve_moves, METH_VARARGS,
     "solve_moves(position, rules): the exact value after each legal action, in the order of legal()."},
    {"greedy", py_greedy, METH_VARARGS, "greedy(position, rules): the playout policy's move."},
    {"evaluate", py_evaluate, METH_VARARGS,
     "evaluate(position, rules, cards): the value after each legal action (the order of legal()), the\n"
     "playout policy playing on until every hand holds at most ``cards``, then solved exactly."},
    {"rollout", py_rollout, METH_VARARGS,
     "rollout(position, rules, cards): the position's value, played by the playout policy to ``cards``\n"
     "a hand, then solved exactly."},
    {"nodes", py_nodes, METH_NOARGS, "nodes(): positions searched by the last solve."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "koloda._thousand",
                                    "Thousand's trick play and its exact solver in C (src/koloda/_thousand.c).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__thousand(void) { return PyModule_Create(&module); }
