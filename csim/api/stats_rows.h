/* Every row macro of csim/api/stats.def defined as nothing (each #undef'd
 * first). A generator includes this, defines the rows it needs after it,
 * then includes stats.def. No include guard: included once per expansion. */
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
#undef LS_STAT_JSON
#undef LS_STAT_JSON_MAP
#undef LS_STAT_OBJ
#undef LS_STAT_OBJ_END
#undef LS_STAT_IF
#undef LS_STAT_ELSE
#undef LS_STAT_ENDIF
#define LS_STATS_GROUP(...)
#define LS_STATS_END(...)
#define LS_STAT_U64(...)
#define LS_STAT_ARR(...)
#define LS_STAT_MAP(...)
#define LS_STAT_DBL(...)
#define LS_STAT_INT(...)
#define LS_STAT_TEXT(...)
#define LS_STAT_SUB(...)
#define LS_STAT_SUBS(...)
#define LS_STAT_JSON(...)
#define LS_STAT_JSON_MAP(...)
#define LS_STAT_OBJ(...)
#define LS_STAT_OBJ_END(...)
#define LS_STAT_IF(...)
#define LS_STAT_ELSE(...)
#define LS_STAT_ENDIF(...)
