/* After api/stats_rows.h: #undefs the rows that make members (groups,
 * U64, ARR, MAP, DBL, INT, TEXT, SUB, SUBS) for a generator that defines
 * them; the JSON-only rows stay empty. No include guard: included once
 * per expansion. */
#undef LS_STATS_GROUP
#undef LS_STATS_END
#undef LS_STAT_U64
#undef LS_STAT_ARR
#undef LS_STAT_MAP
#undef LS_STAT_DBL
#undef LS_STAT_INT
#undef LS_STAT_TEXT
#undef LS_STAT_SUB
#undef LS_STAT_SUBS
