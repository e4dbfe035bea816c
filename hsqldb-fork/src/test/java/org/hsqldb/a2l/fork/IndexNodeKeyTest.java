package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.index.Index;
import org.hsqldb.index.NodeAVL;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.PersistentStore;
import org.junit.jupiter.api.Test;

/**
 * A MEMORY table's index nodes keep their row's leading integer key values packed in a long,
 * and a walk compares those before it loads the row. Such a walk must find exactly what a
 * reading of every row finds: each query here runs on a table with indexes and on a copy
 * without any, whose rows are all read, and the two answers must be equal. The values take
 * in each type's extremes, negative numbers, NULLs, and search values of other classes than
 * the column's (which a walk must compare through the column's type).
 */
@RequiresPatch("Compare-integer-index-keys-kept-in-the-node")
class IndexNodeKeyTest {

    /** A table shape: its key columns' types, and the values a key column takes. */
    private record Shape(String name, String aType, String bType, LongSupplier[] domains,
            String keyDdl) {
    }

    private static final long[] INT_EDGES = {Integer.MIN_VALUE, Integer.MIN_VALUE + 1L, -65_537,
        -65_536, -1, 0, 1, 65_535, 65_536, Integer.MAX_VALUE - 1L, Integer.MAX_VALUE};
    private static final long[] LONG_EDGES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -(1L << 32),
        Integer.MIN_VALUE - 1L, -1, 0, 1, Integer.MAX_VALUE + 1L, 1L << 32, Long.MAX_VALUE - 1,
        Long.MAX_VALUE};

    /** Edges now and then, else a small range, so that keys share their first value often. */
    private static LongSupplier values(SplittableRandom random, long[] edges, long low, long high) {
        return () -> random.nextInt(4) == 0 ? edges[random.nextInt(edges.length)]
                                            : random.nextLong(low, high + 1);
    }

    private static List<Shape> shapes(SplittableRandom r) {
        LongSupplier ints = values(r, INT_EDGES, -40, 40);
        LongSupplier smallints = values(r, new long[] {Short.MIN_VALUE, -1, 0, Short.MAX_VALUE}, -40, 40);
        LongSupplier tinyints = values(r, new long[] {Byte.MIN_VALUE, -1, 0, Byte.MAX_VALUE}, -40, 40);
        LongSupplier longs = values(r, LONG_EDGES, -40, 40);
        LongSupplier manyLongs = values(r, LONG_EDGES, -100_000, 100_000);
        return List.of(
            new Shape("two_ints", "INTEGER", "INTEGER", new LongSupplier[] {ints, ints},
                "PRIMARY KEY (a, b)"),
            new Shape("small_tiny", "SMALLINT", "TINYINT", new LongSupplier[] {smallints, tinyints},
                "PRIMARY KEY (a, b)"),
            new Shape("bigint_int", "BIGINT", "INTEGER", new LongSupplier[] {longs, ints},
                "PRIMARY KEY (a, b)"),
            new Shape("int_bigint", "INTEGER", "BIGINT", new LongSupplier[] {ints, longs},
                "PRIMARY KEY (a, b)"),
            new Shape("int_varchar", "INTEGER", "VARCHAR(12)", new LongSupplier[] {ints, ints},
                "PRIMARY KEY (a, b)"),
            // one BIGINT: its extremes are keyed too
            new Shape("bigint", "BIGINT", "INTEGER", new LongSupplier[] {manyLongs, ints},
                "PRIMARY KEY (a)"),
            // no primary key: a non-unique index over nullable columns, made below
            new Shape("nullable", "INTEGER", "INTEGER", new LongSupplier[] {ints, ints}, null));
    }

    @Test
    void walksThatCompareNodeKeysFindWhatReadingEveryRowFinds() throws SQLException {
        SplittableRandom random = new SplittableRandom(20261129);
        for (String url : new String[] {"jdbc:hsqldb:mem:nodekeys-locks",
                "jdbc:hsqldb:mem:nodekeys-mvcc;hsqldb.tx=mvcc",
                "jdbc:hsqldb:mem:nodekeys-cells;hsqldb.tx=a2l;hsqldb.lock_granularity=cell"}) {
            try (Connection c = Engines.fork(url);
                 Statement s = c.createStatement()) {
                for (Shape shape : shapes(random)) {
                    check(c, s, shape, random);
                }
                assertEquals(List.of(), IndexIntegrity.problems(c));
                s.execute("SHUTDOWN");
            }
        }
    }

    private static void check(Connection c, Statement s, Shape shape, SplittableRandom random)
            throws SQLException {
        String t = "t_" + shape.name;
        String p = "p_" + shape.name;
        String columns = "a " + shape.aType + ", b " + shape.bType + ", v INTEGER";
        s.execute("CREATE TABLE " + t + " (" + columns
            + (shape.keyDdl == null ? "" : ", " + shape.keyDdl) + ")");
        s.execute("CREATE TABLE " + p + " (" + columns + ")");
        boolean nullable = shape.keyDdl == null;
        Set<List<Object>> keys = new HashSet<>();
        List<Object[]> rows = new ArrayList<>();
        for (int tries = 0; rows.size() < 1500; tries++) {
            assertTrue(tries < 100_000, shape.name + ": too few distinct keys in its domains");
            Object a = value(shape.aType, shape.domains[0], random, nullable);
            Object b = value(shape.bType, shape.domains[1], random, nullable);
            if (nullable || keys.add(shape.keyDdl.contains("(a)") ? List.of(a) : List.of(a, b))) {
                rows.add(new Object[] {a, b, rows.size()});
            }
        }
        // half the rows before the secondary indexes are made (their nodes are added to rows
        // already there), half after
        insert(c, t, p, rows.subList(0, 750));
        if (nullable) {
            s.execute("CREATE INDEX " + t + "_ab ON " + t + " (a, b)");
        }
        s.execute("CREATE INDEX " + t + "_ba ON " + t + " (b, a)");
        s.execute("CREATE INDEX " + t + "_b_desc ON " + t + " (b DESC)");
        insert(c, t, p, rows.subList(750, rows.size()));
        // deletes rolled back (a row deleted and put back is indexed again), deletes, and key
        // changes (a row changed in its key is a new row with new nodes)
        c.setAutoCommit(false);
        s.execute("DELETE FROM " + t + " WHERE MOD(v, 3) = 0");
        c.rollback();
        c.setAutoCommit(true);
        for (String table : new String[] {t, p}) {
            s.execute("DELETE FROM " + table + " WHERE MOD(v, 7) = 3");
            s.execute("UPDATE " + table + " SET v = v + 100000 WHERE MOD(v, 5) = 1");
            if (nullable) {
                s.execute("UPDATE " + table + " SET b = NULL WHERE MOD(v, 11) = 2");
            }
        }

        String[] conditions = {
            "a = ? AND b = ?", "a = ?", "b = ?", "b = ? AND a = ?", "a > ?", "a >= ?", "a < ?",
            "a <= ?", "a = ? AND b > ?", "a = ? AND b >= ?", "a = ? AND b < ?", "a = ? AND b <= ?",
            "b > ?", "b <= ?", "a BETWEEN ? AND ?", "a IN (?, ?, ?)", "a IS NULL", "a = ? AND b IS NULL",
            "b IS NULL AND a > ?",
            // search values of a wider type than the column's
            "a = CAST(? AS BIGINT)", "a > CAST(? AS DECIMAL(21, 1))", "a < CAST(? AS DOUBLE)",
            "a = CAST(? AS DECIMAL(21, 1)) AND b >= ?", "a = ? AND b < CAST(? AS DOUBLE)",
            // and fractions, which no integer equals
            "a > CAST(? AS DECIMAL(21, 1)) + 0.5", "a = CAST(? AS DOUBLE) - 0.5",
            "a = ? AND b <= CAST(? AS DECIMAL(21, 1)) - 0.5"};
        Object[] sample = rows.get(0);
        for (String condition : conditions) {
            int parameters = (int) condition.chars().filter(ch -> ch == '?').count();
            for (int round = 0; round < 12; round++) {
                Object[] args = new Object[parameters];
                for (int i = 0; i < parameters; i++) {
                    // mostly values in the table, sometimes others; as the column's class, or not
                    Object[] row = rows.get(random.nextInt(rows.size()));
                    boolean onB = condition.indexOf('?') >= 0 && columnOf(condition, i) == 'b';
                    String type = onB ? shape.bType : shape.aType;
                    Object v = random.nextInt(5) == 0
                        ? value(type, shape.domains[onB ? 1 : 0], random, false)
                        : row[onB ? 1 : 0];
                    args[i] = v == null ? sample[onB ? 1 : 0] : otherClass(v, type, random);
                }
                if (shape.bType.startsWith("VARCHAR") && condition.matches(".*b [<>=]+ CAST.*")) {
                    continue;
                }
                String query = "SELECT a, b, v FROM %s WHERE " + condition + " ORDER BY a, b, v";
                List<List<Object>> want = rowsOf(c, String.format(query, p), args);
                List<List<Object>> got = rowsOf(c, String.format(query, t), args);
                assertSame(want, got, shape.name + ": " + condition + " " + Arrays.asList(args));
            }
        }
        for (String aggregate : new String[] {"MAX(a)", "MIN(a)", "MAX(b)", "MIN(b)"}) {
            Object a = rows.get(random.nextInt(rows.size()))[0];
            String all = "SELECT " + aggregate + " FROM %s";
            assertSame(rowsOf(c, String.format(all, p)), rowsOf(c, String.format(all, t)), aggregate);
            if (a != null) {
                String one = "SELECT " + aggregate + " FROM %s WHERE a = ?";
                assertSame(rowsOf(c, String.format(one, p), a), rowsOf(c, String.format(one, t), a),
                    aggregate + " at a = " + a);
            }
        }
    }

    /**
     * Keys of three and four columns take 21 and 16 bits a column: values at the edges of those
     * ranges are keyed, values past them are not, and walks meet both kinds of node.
     */
    @Test
    void keysOfThreeAndFourColumnsFindWhatReadingEveryRowFinds() throws SQLException {
        SplittableRandom random = new SplittableRandom(29);
        long[] edges21 = {-(1L << 20) - 1, -(1L << 20), -(1L << 20) + 1, -1, 0, (1L << 20) - 2,
            (1L << 20) - 1, 1L << 20, Integer.MIN_VALUE, Integer.MAX_VALUE};
        long[] edges16 = {-(1L << 15) - 1, -(1L << 15), -1, 0, (1L << 15) - 1, 1L << 15,
            Long.MIN_VALUE, Long.MAX_VALUE};
        String[][] shapes = {
            {"INTEGER", "INTEGER", "INTEGER"},
            {"SMALLINT", "INTEGER", "BIGINT", "INTEGER"}};
        long[][] edges = {edges21, edges16};
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:nodekeys-wide");
             Statement s = c.createStatement()) {
            for (int k = 0; k < shapes.length; k++) {
                String[] types = shapes[k];
                int n = types.length;
                String[] names = {"a", "b", "c", "d"};
                StringBuilder columns = new StringBuilder();
                for (int j = 0; j < n; j++) {
                    columns.append(names[j]).append(' ').append(types[j]).append(", ");
                }
                columns.append("v INTEGER");
                String key = String.join(", ", Arrays.copyOf(names, n));
                String t = "w" + n;
                String p = "pw" + n;
                s.execute("CREATE TABLE " + t + " (" + columns + ", PRIMARY KEY (" + key + "))");
                s.execute("CREATE TABLE " + p + " (" + columns + ")");
                long[] edge = edges[k];
                Set<List<Object>> keys = new HashSet<>();
                List<Object[]> rows = new ArrayList<>();
                for (int tries = 0; rows.size() < 2000; tries++) {
                    assertTrue(tries < 100_000, t + ": too few distinct keys");
                    Object[] row = new Object[n + 1];
                    for (int j = 0; j < n; j++) {
                        // few first values, so that walks go deep on equal prefixes
                        long v = random.nextInt(3) == 0 ? edge[random.nextInt(edge.length)]
                                                        : random.nextLong(-3, 4);
                        row[j] = types[j].equals("BIGINT") ? (Object) v
                            : types[j].equals("SMALLINT") ? (Object) (int) Math.max(Short.MIN_VALUE,
                                  Math.min(Short.MAX_VALUE, v))
                            : (Object) (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
                    }
                    row[n] = rows.size();
                    if (keys.add(Arrays.asList(Arrays.copyOf(row, n)))) {
                        rows.add(row);
                    }
                }
                String marks = String.join(", ", java.util.Collections.nCopies(n + 1, "?"));
                for (String table : new String[] {t, p}) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
                        for (Object[] row : rows) {
                            for (int j = 0; j <= n; j++) {
                                ps.setObject(j + 1, row[j]);
                            }
                            ps.executeUpdate();
                        }
                    }
                }
                String order = " ORDER BY " + key + ", v";
                for (int round = 0; round < 150; round++) {
                    Object[] row = rows.get(random.nextInt(rows.size()));
                    int fixed = 1 + random.nextInt(n);
                    List<String> conditions = new ArrayList<>();
                    List<Object> args = new ArrayList<>();
                    for (int j = 0; j < fixed; j++) {
                        conditions.add(names[j] + " = ?");
                        args.add(row[j]);
                    }
                    if (fixed < n && random.nextBoolean()) {
                        conditions.add(names[fixed] + (random.nextBoolean() ? " > ?" : " <= ?"));
                        args.add(row[fixed]);
                    }
                    String query = "SELECT * FROM %s WHERE " + String.join(" AND ", conditions) + order;
                    Object[] a = args.toArray();
                    assertSame(rowsOf(c, String.format(query, p), a), rowsOf(c, String.format(query, t), a),
                        t + ": " + conditions + " " + args);
                }
            }
            assertEquals(List.of(), IndexIntegrity.problems(c));
        }
    }

    /**
     * An index given other columns by ALTER INDEX is built again from the rows it had: their
     * nodes' keys must be of its new columns. A grouped result's rows are changed in place
     * (their aggregates) and then indexed again for ORDER BY: likewise (a guard: today a count's
     * node is made while its value is not yet a number, so it keeps no key to go stale).
     */
    @Test
    void indexesBuiltAgainKeyTheirNodesByTheirNewColumns() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:nodekeys-rebuilt");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER)");
            s.execute("CREATE TABLE p (id INTEGER, a INTEGER, b INTEGER, c INTEGER)");
            s.execute("CREATE INDEX t_i ON t (a)");
            for (String table : new String[] {"t", "p"}) {
                s.execute("INSERT INTO " + table + " SELECT x, MOD(x * 7, 50), 1000 - MOD(x * 13, 90), x / 10"
                    + " FROM UNNEST(SEQUENCE_ARRAY(1, 3000, 1)) AS s(x)");
            }
            s.execute("ALTER INDEX t_i AS (b, c)");
            assertEquals(List.of(), IndexIntegrity.problems(c));
            for (int b = 905; b <= 1000; b += 7) {
                for (String condition : new String[] {"b = ?", "b = ? AND c > 100", "b = ? AND c = 123"}) {
                    String query = "SELECT * FROM %s WHERE " + condition + " ORDER BY id";
                    assertSame(rowsOf(c, String.format(query, "p"), b), rowsOf(c, String.format(query, "t"), b),
                        condition + " at b = " + b);
                }
            }
            // counts by a: the index of the ORDER BY is made on the counts once they are summed
            List<List<Object>> counts = rowsOf(c,
                "SELECT COUNT(*) AS n, a FROM t GROUP BY a ORDER BY n, a");
            List<List<Object>> want = rowsOf(c, "SELECT a FROM p");
            java.util.Map<Integer, Long> byA = new java.util.TreeMap<>();
            for (List<Object> row : want) {
                byA.merge((Integer) row.get(0), 1L, Long::sum);
            }
            List<List<Object>> expected = new ArrayList<>();
            byA.forEach((a, n) -> expected.add(Arrays.asList(n, a)));
            expected.sort((x, y) -> ((Long) x.get(0)).equals((Long) y.get(0))
                ? Integer.compare((Integer) x.get(1), (Integer) y.get(1))
                : Long.compare((Long) x.get(0), (Long) y.get(0)));
            assertSame(expected, counts, "counts by a, ordered by count");
        }
    }

    /** A duplicate of a key at the edges of its range is found by a walk on the keys. */
    @Test
    void aDuplicateKeyFailsWith23505() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:nodekeys-duplicate");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER, b BIGINT, c SMALLINT, PRIMARY KEY (a, b, c))");
            long[][] keys = {{Integer.MIN_VALUE, Long.MIN_VALUE, Short.MIN_VALUE}, {-1, -(1L << 20), -1},
                {0, (1L << 20) - 1, 0}, {Integer.MAX_VALUE, Long.MAX_VALUE, Short.MAX_VALUE}};
            for (long[] k : keys) {
                s.execute("INSERT INTO t VALUES (" + k[0] + ", " + k[1] + ", " + k[2] + ")");
            }
            for (long[] k : keys) {
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> s.execute("INSERT INTO t VALUES (" + k[0] + ", " + k[1] + ", " + k[2] + ")"));
                assertEquals("23505", e.getSQLState(), Arrays.toString(k));
            }
            assertEquals(List.of(List.of(4L)), rowsOf(c, "SELECT COUNT(*) FROM t"));
            assertEquals(List.of(), IndexIntegrity.problems(c));
        }
    }

    /** Equal answers, or a failure that names the first row where they part. */
    private static void assertSame(List<List<Object>> want, List<List<Object>> got, String what) {
        if (want.equals(got)) {
            return;
        }
        int i = 0;
        while (i < want.size() && i < got.size() && want.get(i).equals(got.get(i))) {
            i++;
        }
        fail(what + ": " + want.size() + " rows read row by row, " + got.size() + " through the"
            + " indexes; first difference at row " + i + ": "
            + (i < want.size() ? want.get(i) : "none") + " against " + (i < got.size() ? got.get(i) : "none"));
    }

    /** Which column the i-th parameter of the condition is compared with. */
    private static char columnOf(String condition, int i) {
        int at = -1;
        for (int k = 0; k <= i; k++) {
            at = condition.indexOf('?', at + 1);
        }
        int a = condition.lastIndexOf("a ", at);
        int b = condition.lastIndexOf("b ", at);
        return b > a ? 'b' : 'a';
    }

    private static Object value(String type, LongSupplier domain, SplittableRandom random,
            boolean nullable) {
        if (nullable && random.nextInt(8) == 0) {
            return null;
        }
        long v = domain.getAsLong();
        switch (type) {
            case "BIGINT":
                return v;
            case "VARCHAR(12)":
                return Long.toString(v);
            default:
                return (int) v;
        }
    }

    /** The value, or the same number as a Long, a BigDecimal or a String. */
    private static Object otherClass(Object v, String type, SplittableRandom random) {
        if (v instanceof String) {
            return v;
        }
        long n = ((Number) v).longValue();
        switch (random.nextInt(4)) {
            case 0:
                return n;
            case 1:
                return BigDecimal.valueOf(n);
            case 2:
                return Long.toString(n);
            default:
                return v;
        }
    }

    private static void insert(Connection c, String t, String p, List<Object[]> rows)
            throws SQLException {
        for (String table : new String[] {t, p}) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
                for (Object[] row : rows) {
                    for (int i = 0; i < 3; i++) {
                        ps.setObject(i + 1, row[i]);
                    }
                    ps.executeUpdate();
                }
            }
        }
    }

    private static List<List<Object>> rowsOf(Connection c, String query, Object... args)
            throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(query)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    /**
     * The keys are there to be used: the nodes of an integer primary key are keyed, those of an
     * index that begins with another type are not, and a key that disagrees with its row is found by the index check
     * (which the concurrency tests run after their rounds).
     */
    @Test
    void integerKeysArePackedAndTheIndexCheckComparesThemWithTheRows() throws Exception {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:nodekeys-check");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER, b INTEGER, c VARCHAR(4), d DECIMAL(9, 2),"
                + " PRIMARY KEY (a, b))");
            s.execute("CREATE INDEX t_c ON t (c)");
            s.execute("CREATE INDEX t_d ON t (d, a)");
            for (int i = 0; i < 100; i++) {
                s.execute("INSERT INTO t VALUES (" + (i % 10) + ", " + (i - 50) + ", 'c" + i + "', " + i + ")");
            }
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            PersistentStore store = t.getRowStore(session);
            Field keyed = NodeAVL.class.getDeclaredField("keyed");
            Field key = NodeAVL.class.getDeclaredField("key");
            keyed.setAccessible(true);
            key.setAccessible(true);
            NodeAVL pkRoot = (NodeAVL) store.getAccessor(t.getPrimaryIndex());
            assertTrue(keyed.getBoolean(pkRoot), "an (INTEGER, INTEGER) primary key's node is keyed");
            assertFalse(keyed.getBoolean(store.getAccessor(index(t, "T_C"))), "a VARCHAR index's is not");
            assertFalse(keyed.getBoolean(store.getAccessor(index(t, "T_D"))), "a DECIMAL index's is not");
            assertEquals(List.of(), IndexIntegrity.problems(c));

            key.setLong(pkRoot, key.getLong(pkRoot) + 1);
            List<String> problems = IndexIntegrity.problems(c);
            assertTrue(problems.stream().anyMatch(m -> m.contains("key is not its row's values")),
                problems.toString());
        }
    }

    private static Index index(Table t, String name) {
        for (Index index : t.getIndexList()) {
            if (index.getName().name.equals(name)) {
                return index;
            }
        }
        throw new AssertionError("no index " + name);
    }
}
