/* Counter arithmetic on the public statistics structs, generated from the
 * rows of csim/api/stats.def: for every group T, T_acc(a, x, sign) adds
 * (sign > 0) or subtracts (sign < 0) x's SUM members into a's, sub-structs
 * included. Rows combined otherwise (MAX, KEEP, FIRST, NONE, BACKEND) are
 * left alone. Header-only (static inline, no link edge), so any layer that
 * fills these structs (mem, gpu) uses it instead of listing the members. */
#ifndef API_STATS_OPS_H
#define API_STATS_OPS_H

#include <stddef.h>
#include "lockstep.h"

#define STATS_OP_SUM(a, b, s) ((a) = (s) > 0 ? (a) + (b) : (a) - (b))
#define STATS_OP_MAX(a, b, s) ((void)0)
#define STATS_OP_KEEP(a, b, s) ((void)0)
#define STATS_OP_FIRST(a, b, s) ((void)0)
#define STATS_OP_NONE(a, b, s) ((void)0)
#define STATS_OP_BACKEND(a, b, s) ((void)0)

#include "api/stats_rows.h"
#include "api/stats_members.h"
#define LS_STAT_TEXT(...)
#define LS_STATS_GROUP(T, when, doc) \
    static inline void T##_acc(T *a, const T *x, int sign) { (void)a; (void)x; (void)sign;
#define LS_STATS_END(T) }
#define LS_STAT_U64(T, name, key, how, doc) STATS_OP_##how(a->name, x->name, sign);
#define LS_STAT_ARR(T, name, n, key, how, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) STATS_OP_##how(a->name[i_], x->name[i_], sign);
#define LS_STAT_MAP(T, name, n, names, key, how, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) STATS_OP_##how(a->name[i_], x->name[i_], sign);
#define LS_STAT_DBL(T, name, key, how, doc) STATS_OP_##how(a->name, x->name, sign);
#define LS_STAT_INT(T, name, how, doc) STATS_OP_##how(a->name, x->name, sign);
#define LS_STAT_SUB(T, ST, name, key, doc) ST##_acc(&a->name, &x->name, sign);
#define LS_STAT_SUBS(T, ST, name, n, names, key, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) ST##_acc(&a->name[i_], &x->name[i_], sign);
#include "api/stats.def"
#include "api/stats_rows.h"

#endif
