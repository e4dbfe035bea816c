package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The "simple analysis" of thesis 6.4 that extracts each transaction's write set, done by the
 * engine rather than by hand: sample transactions of each type run (and are rolled back) while
 * the SQL they execute is recorded; the fork reports each statement's lock set
 * ({@code EXPLAIN LOCKS FOR}); the union of the exclusive locks is the transaction's write set,
 * at table or attribute granularity as the engine's mode locks.
 *
 * <p>It also replays each recorded transaction against the fork's early-release rule and lists
 * the statements that would fail under it: those that, after the transaction's first write,
 * need a lock that is neither declared nor kept (an RbW violation).
 */
public final class LockSetAnalysis {

    /**
     * One lock as EXPLAIN LOCKS names it: DATABASE, SCHEMA.TABLE or SCHEMA.TABLE.COLUMN; {@code update}
     * is the update mode U a read for update takes (shared with readers, and made X by the write).
     */
    public record Lock(String name, boolean exclusive, boolean update) {

        public Lock(String name, boolean exclusive) {
            this(name, exclusive, false);
        }

        boolean isDatabase() {
            return name.indexOf('.') < 0;
        }

        boolean isAttribute() {
            return name.indexOf('.') != name.lastIndexOf('.');
        }

        /** SCHEMA.TABLE of a table or attribute lock. */
        String table() {
            return isAttribute() ? name.substring(0, name.lastIndexOf('.')) : name;
        }

        @Override
        public String toString() {
            return (exclusive ? "X(" : update ? "U(" : "S(") + name + ")";
        }
    }

    /**
     * What the analysis found for one transaction type.
     *
     * @param statements the distinct SQL executed, in order of first execution
     * @param locks each statement's lock set, as the engine reports it
     * @param writeSet table to written columns; an empty set means the whole table (X on it)
     * @param violations statements that need a lock after the first write that early release
     *        does not keep, each with the lock
     */
    public record Result(TxnType type, List<String> statements, Map<String, List<Lock>> locks, SortedMap<String, SortedSet<String>> writeSet,
                         List<String> violations) {

        /** {@code DECLARE WRITE SET ...} for the write set, or null when the transaction writes nothing. */
        public String declaration() {
            if (writeSet.isEmpty()) return null;
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, SortedSet<String>> e : writeSet.entrySet()) {
                String table = quoted(e.getKey());
                parts.add(e.getValue().isEmpty() ? table
                        : table + " (" + String.join(", ", e.getValue().stream().map(LockSetAnalysis::quote).toList()) + ")");
            }
            return "DECLARE WRITE SET " + String.join(", ", parts);
        }
    }

    private final Connection connection;
    private final Map<String, List<Lock>> locksOf = new HashMap<>();
    private final Map<String, Set<String>> foreignKeyLocks = new HashMap<>();
    private final Map<String, Set<String>> indexedColumns = new HashMap<>();

    private LockSetAnalysis(Connection connection) {
        this.connection = connection;
    }

    /**
     * Runs {@code samples} transactions of each type in {@code order} on {@code connection}'s
     * (loaded) database, rolling each back, and analyses what they executed. The connection must
     * be the fork's and is left with autocommit off.
     */
    public static Map<TxnType, Result> analyze(Connection connection, Scale scale, NURandConstants constants,
                                               long seed, StatementOrder order, int samples) throws SQLException {
        return analyze(connection, scale, constants, seed, order, samples, ReadsForUpdate.PLAIN);
    }

    /** As above, with the reads that precede an update written in {@code reads}' form. */
    public static Map<TxnType, Result> analyze(Connection connection, Scale scale, NURandConstants constants,
                                               long seed, StatementOrder order, int samples, ReadsForUpdate reads)
            throws SQLException {
        return analyze(connection, scale, constants, seed, order, samples, reads, ClientShape.HARNESS);
    }

    /**
     * As above, with the transactions sent as {@code shape} says (New-Order's batches, and its
     * insert order on the constrained schema, which the connection's database must have).
     */
    public static Map<TxnType, Result> analyze(Connection connection, Scale scale, NURandConstants constants,
                                               long seed, StatementOrder order, int samples, ReadsForUpdate reads,
                                               ClientShape shape)
            throws SQLException {
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        LockSetAnalysis analysis = new LockSetAnalysis(connection);
        Map<TxnType, Result> results = new EnumMap<>(TxnType.class);
        for (TxnType type : TxnType.values()) {
            InputGenerator inputs = new InputGenerator(scale, constants, TpccRandom.derived(seed, "lock-sets", type.ordinal()),
                    1, 1);
            List<List<String>> traces = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
                traces.add(trace(connection, scale, inputs.next(type), order, reads, shape));
            }
            results.put(type, analysis.analyze(type, traces));
        }
        return results;
    }

    /** The SQL one transaction executes, in order; the transaction is rolled back. */
    private static List<String> trace(Connection connection, Scale scale, TxnInput input, StatementOrder order,
                                      ReadsForUpdate reads, ClientShape shape) throws SQLException {
        List<String> executed = new ArrayList<>();
        Statements statements = new Statements(connection, reads);
        statements.trace(executed::add);
        Timestamp now = Timestamp.from(Instant.now());
        try {
            switch (input.type()) {
                case NEW_ORDER -> new NewOrderTxn(statements, shape).run((TxnInput.NewOrder) input, order, now);
                case PAYMENT -> new PaymentTxn(statements).run((TxnInput.Payment) input, order, now);
                case DELIVERY -> new DeliveryTxn(statements, scale.districtsPerWarehouse())
                        .run((TxnInput.Delivery) input, order, now);
                case ORDER_STATUS -> new OrderStatusTxn(statements).run((TxnInput.OrderStatus) input);
                case STOCK_LEVEL -> new StockLevelTxn(statements).run((TxnInput.StockLevel) input);
            }
        } catch (SpecRollback expected) {
            // the statements up to the missing item are what such a transaction runs
        } finally {
            connection.rollback();
            statements.close();
        }
        return executed;
    }

    private Result analyze(TxnType type, List<List<String>> traces) throws SQLException {
        Set<String> distinct = new LinkedHashSet<>();
        traces.forEach(distinct::addAll);
        // X on a table (insert, delete, structural update) makes the whole table the write set;
        // otherwise the columns with X attribute locks
        SortedMap<String, SortedSet<String>> writeSet = new TreeMap<>();
        Set<String> wholeTables = new java.util.HashSet<>();
        for (String sql : distinct) {
            for (Lock lock : locks(sql)) {
                if (!lock.exclusive() || lock.isDatabase()) continue;
                writeSet.computeIfAbsent(lock.table(), t -> new TreeSet<>());
                if (lock.isAttribute()) {
                    writeSet.get(lock.table()).add(lock.name().substring(lock.name().lastIndexOf('.') + 1));
                } else {
                    wholeTables.add(lock.name());
                }
            }
        }
        for (String table : wholeTables) writeSet.get(table).clear();
        Set<String> violations = new LinkedHashSet<>();
        for (List<String> trace : traces) {
            violations.addAll(replay(trace, writeSet));
        }
        Map<String, List<Lock>> locks = new java.util.LinkedHashMap<>();
        for (String sql : distinct) locks.put(sql, locks(sql));
        return new Result(type, List.copyOf(distinct), locks, writeSet, List.copyOf(violations));
    }

    /**
     * The fork's early-release rule (patch "Release read locks early"): at the first statement
     * that takes an X lock the transaction holds what it took so far, that statement's locks
     * and the declared ones; it then keeps only the database lock, that statement's locks,
     * locks on declared tables and, for tables declared whole, the locks on the parent and
     * child tables (and key columns) of their foreign keys. Every later lock must be covered
     * by what it keeps.
     */
    private List<String> replay(List<String> trace, SortedMap<String, SortedSet<String>> writeSet)
            throws SQLException {
        Map<String, Boolean> held = new HashMap<>();
        List<String> violations = new ArrayList<>();
        boolean released = false;
        for (String sql : trace) {
            List<Lock> locks = locks(sql);
            if (released) {
                for (Lock lock : locks) {
                    if (!covered(held, lock)) {
                        violations.add(lock + " not covered, needed by: " + sql);
                    }
                }
                continue;
            }
            for (Lock lock : locks) held.merge(lock.name(), lock.exclusive(), Boolean::logicalOr);
            if (locks.stream().anyMatch(Lock::exclusive) && !writeSet.isEmpty()) {
                for (Map.Entry<String, SortedSet<String>> e : writeSet.entrySet()) {
                    if (e.getValue().isEmpty()) {
                        held.put(e.getKey(), true);
                    } else {
                        held.merge(e.getKey(), false, Boolean::logicalOr);
                        for (String column : e.getValue()) held.put(e.getKey() + "." + column, true);
                    }
                }
                Set<String> kept = new java.util.HashSet<>();
                for (Lock lock : locks) kept.add(lock.name());
                for (Map.Entry<String, SortedSet<String>> e : writeSet.entrySet()) {
                    if (e.getValue().isEmpty()) kept.addAll(foreignKeyLocks(e.getKey()));
                }
                held.entrySet().removeIf(h -> {
                    Lock l = new Lock(h.getKey(), h.getValue());
                    return !l.exclusive() && !l.isDatabase() && !writeSet.containsKey(l.table())
                            && !kept.contains(l.name());
                });
                released = true;
            }
        }
        return violations;
    }

    /**
     * The tables, and key columns, that writes to {@code table} reach through its foreign
     * keys (parents and children), from the JDBC metadata.
     */
    private Set<String> foreignKeyLocks(String table) throws SQLException {
        Set<String> names = foreignKeyLocks.get(table);
        if (names != null) return names;
        names = new java.util.HashSet<>();
        String schema = table.substring(0, table.indexOf('.'));
        String name = table.substring(table.indexOf('.') + 1);
        DatabaseMetaData meta = connection.getMetaData();
        try (ResultSet parents = meta.getImportedKeys(null, schema, name)) {
            while (parents.next()) {
                String parent = parents.getString("PKTABLE_SCHEM") + "." + parents.getString("PKTABLE_NAME");
                names.add(parent);
                names.add(parent + "." + parents.getString("PKCOLUMN_NAME"));
            }
        }
        try (ResultSet children = meta.getExportedKeys(null, schema, name)) {
            while (children.next()) {
                String child = children.getString("FKTABLE_SCHEM") + "." + children.getString("FKTABLE_NAME");
                names.add(child);
                names.add(child + "." + children.getString("FKCOLUMN_NAME"));
            }
        }
        foreignKeyLocks.put(table, names);
        return names;
    }

    /**
     * As the fork decides: a lock is covered by the same or a stronger one held, an attribute
     * by X on its table, and S on an indexed column by S on its table (only X on the table
     * writes indexed columns).
     */
    private boolean covered(Map<String, Boolean> held, Lock lock) throws SQLException {
        Boolean mode = held.get(lock.name());
        if (mode != null && (mode || !lock.exclusive())) return true;
        if (!lock.isAttribute()) return false;
        Boolean table = held.get(lock.table());
        if (table == null) return false;
        return table || !lock.exclusive() && indexedColumns(lock.table()).contains(lock.name());
    }

    /** SCHEMA.TABLE.COLUMN of the columns of the table's indexes, from the JDBC metadata. */
    private Set<String> indexedColumns(String table) throws SQLException {
        Set<String> names = indexedColumns.get(table);
        if (names != null) return names;
        names = new java.util.HashSet<>();
        try (ResultSet rs = connection.getMetaData().getIndexInfo(null, table.substring(0, table.indexOf('.')),
                table.substring(table.indexOf('.') + 1), false, false)) {
            while (rs.next()) {
                if (rs.getString("COLUMN_NAME") != null) names.add(table + "." + rs.getString("COLUMN_NAME"));
            }
        }
        indexedColumns.put(table, names);
        return names;
    }

    /** The statement's lock set, from the engine. */
    List<Lock> locks(String sql) throws SQLException {
        List<Lock> locks = locksOf.get(sql);
        if (locks != null) return locks;
        locks = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN LOCKS FOR " + sql)) {
            while (rs.next()) {
                locks.add(new Lock(rs.getString(1), "X".equals(rs.getString(2)), "U".equals(rs.getString(2))));
            }
        } catch (SQLException e) {
            throw new SQLException("the engine cannot report lock sets (EXPLAIN LOCKS FOR needs the fork): "
                    + e.getMessage(), e.getSQLState(), e);
        }
        locksOf.put(sql, List.copyOf(locks));
        return locksOf.get(sql);
    }

    /**
     * The statement's lock set as the engine explains it, one line per lock: mode, name,
     * granularity and, where the engine gives one, the reason for it (EXPLAIN LOCKS FOR's four
     * columns). For reading; the analysis itself works on {@link #locks}.
     */
    List<String> explained(String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN LOCKS FOR " + sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String line = rs.getString(2) + " " + rs.getString(1);
                if (columns >= 3 && rs.getString(3) != null) line += " " + rs.getString(3);
                if (columns >= 4 && rs.getString(4) != null) line += " (" + rs.getString(4) + ")";
                lines.add(line);
            }
        }
        return lines;
    }

    /** {@link #explained} for {@code sql} on {@code connection}. */
    public static List<String> explained(Connection connection, String sql) throws SQLException {
        return new LockSetAnalysis(connection).explained(sql);
    }

    private static String quoted(String schemaTable) {
        int dot = schemaTable.indexOf('.');
        return quote(schemaTable.substring(0, dot)) + "." + quote(schemaTable.substring(dot + 1));
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
