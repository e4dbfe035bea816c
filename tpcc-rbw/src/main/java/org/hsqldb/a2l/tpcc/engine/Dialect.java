package org.hsqldb.a2l.tpcc.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hsqldb.a2l.tpcc.AbortReason;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;
import org.hsqldb.a2l.tpcc.Statements;

/**
 * Everything that differs between the engines the harness runs, one constant per engine: how to
 * reach an in-memory (or served) database, which jars and driver, how tables are created and
 * dropped, which isolation level the benchmark runs and what the engine's documentation says it
 * guarantees, which SQLSTATEs are retryable conflicts, how a read that precedes an update asks for
 * the write lock ({@link #readsForUpdate}), and how a database is let go. The TPC-C
 * code itself is JDBC and standard SQL only; where it needs an engine's way it asks here, by the
 * connection it holds ({@link #of(Connection)}).
 *
 * <p>Types and indexes: the nine tables use INTEGER, DECIMAL(p,s), CHAR(n), VARCHAR(n) and
 * TIMESTAMP, and one secondary index by CREATE INDEX; HSQLDB, H2 2.3, Derby 10.16 and PostgreSQL 15
 * accept that DDL as it is, so {@link #ddl} changes only what an engine would otherwise choose
 * differently (HSQLDB's table type).
 */
public enum Dialect {

    /** HSQLDB, upstream and fork: FOR UPDATE OF the columns (the fork's A2L locks just those). */
    HSQLDB("HSQL Database Engine", "org.hsqldb.jdbc.JDBCDriver", List.of(), "SA", "", ReadsForUpdate.FOR_UPDATE_OF,
            Set.of("42501"), Set.of("40001", "40501"), Set.of("40502")) {
        /** HSQLDB wants the query in parentheses and WITH DATA, and IF EXISTS after the name. */
        @Override
        public List<String> copyTable(String schema, String table) {
            return List.of("CREATE TABLE " + schema + "." + table + " AS (SELECT * FROM " + table + ") WITH DATA");
        }

        @Override
        public String dropSchemaIfExists(String schema) {
            return "DROP SCHEMA " + schema + " IF EXISTS CASCADE";
        }

        @Override
        public String ddl(String statement) {
            // the fork's latch-free path is for MEMORY tables: say so rather than rely on the default
            return statement.startsWith("CREATE TABLE ") ? "CREATE MEMORY TABLE " + statement.substring(13) : statement;
        }

        @Override
        public String guarantee(EngineConfig config, Isolation level) {
            if (level != Isolation.SERIALIZABLE) return genericGuarantee(level);
            String tx = config == null ? "locks" : config.hsqldbTransactionControl();
            return switch (tx) {
                case "mvcc" -> "HyperSQL Guide, \"Sessions and Transactions\" (MVCC): with REPEATABLE READ or"
                        + " SERIALIZABLE a transaction reads a snapshot taken at its start and writers lock rows,"
                        + " a concurrent change of a row it writes aborts it; that is snapshot isolation, not"
                        + " serializability.";
                case "mvlocks" -> "HyperSQL Guide, \"Sessions and Transactions\" (MVLOCKS): updating transactions"
                        + " lock tables as in two-phase locking, read-only ones read a snapshot without locks.";
                case "a2l" -> config.hsqldbLockGranularity().equals("cell")
                        ? "This fork (A2L with LOCK GRANULARITY CELL, hsqldb-fork/README.md): two-phase"
                        + " locking on tables and (table, column) pairs and, for statements that address rows by"
                        + " their primary key, on row keys, key ranges and (table, column, key) cells under"
                        + " intention locks, read locks"
                        + " held to commit under SERIALIZABLE, deadlock victims aborted with 40001."
                        : "This fork (A2L, hsqldb-fork/README.md): two-phase locking on tables and (table, column) pairs, read"
                        + " locks held to commit under SERIALIZABLE, deadlock victims aborted with 40001.";
                default -> "HyperSQL Guide, \"Sessions and Transactions\" (LOCKS): two-phase locking on whole"
                        + " tables, read and write locks held to commit under SERIALIZABLE, so executions are"
                        + " serializable; deadlock victims are rolled back.";
            };
        }
    },

    /**
     * H2 2.3 takes FOR UPDATE with or without OF columns, also on joins and with ORDER BY (not on an
     * aggregate, as nobody does); it locks whole rows either way, so it gets the plain form.
     */
    H2("H2", "org.h2.Driver", List.of("h2"), "sa", "", ReadsForUpdate.FOR_UPDATE,
            Set.of("42S02", "42102", "42S04"), Set.of("40001", "90131"), Set.of("HYT00")) {
        @Override
        public String url(String database, String properties) {
            return "jdbc:h2:mem:" + database + (properties.isEmpty() ? "" : ";" + properties);
        }

        /** WRITE_DELAY=0: H2 writes a transaction's changes to its file at commit (it has no setting that syncs them). */
        @Override
        public String fileUrl(java.nio.file.Path file, String properties) {
            return "jdbc:h2:file:" + file + ";WRITE_DELAY=0" + (properties.isEmpty() ? "" : ";" + properties);
        }

        @Override
        public String commitDurability() {
            return "WRITE_DELAY=0: writes the transaction's changes to its file at each commit, without a sync (H2"
                    + " syncs only at CHECKPOINT SYNC and on close, and has no setting that syncs each commit)";
        }

        @Override
        public String referentialChecks(boolean on) {
            return "SET REFERENTIAL_INTEGRITY " + (on ? "TRUE" : "FALSE");
        }

        /**
         * H2's SERIALIZABLE reads a snapshot: two New-Orders of one district both read the same
         * D_NEXT_O_ID, the first inserts NEW_ORDER (or ORDERS) with it, and the second's insert of
         * the same key waits for the first's row lock and, once the first commits, fails with
         * 23505. The key is taken only because of what the stale snapshot said: the same
         * transaction, retried on a fresh snapshot, reads the next id and succeeds. So under H2 a
         * duplicate key is the write-write conflict of snapshot isolation, reported as a
         * constraint violation, and is retried as a serialization failure. Likewise two
         * Deliveries of one district both read the same oldest NEW_ORDER row; the second's DELETE
         * waits for the first's row lock and, once the first commits, deletes nothing, which the
         * harness reports as TPCC1 ("expected 1 row changed, got 0"): retried, the Delivery reads
         * the next oldest order.
         */
        @Override
        public AbortReason classify(SQLException e) {
            if ("23505".equals(e.getSQLState()) || Statements.NOT_ONE_ROW.equals(e.getSQLState())) {
                return AbortReason.SERIALIZATION_FAILURE;
            }
            return super.classify(e);
        }

        @Override
        public String guarantee(EngineConfig config, Isolation level) {
            if (level != Isolation.SERIALIZABLE) return genericGuarantee(level);
            return "H2 2.x documentation (\"Advanced: Transaction Isolation\"): SERIALIZABLE rules out dirty,"
                    + " non-repeatable and phantom reads and is meant to act like a serial execution; H2's"
                    + " maintainers call it partial (mailing list): MVStore reads a snapshot and locks only the"
                    + " rows it writes, so equivalence with a serial execution is not ensured.";
        }

        @Override
        public List<String> isolationSessionSetup() {
            // a blocked step must still be waiting when the schedule's next step runs (default 1 s)
            return List.of("SET LOCK_TIMEOUT 10000");
        }

        @Override
        public void shutdown(Connection c) throws SQLException {
            try (var s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }
    },

    /**
     * Derby 10.16 takes FOR UPDATE [OF columns] only on an updatable cursor: one table, no ORDER BY,
     * no join, no aggregate (else 42Y90). Payment's read of the customer by last name has ORDER BY
     * c_first, and the form is one per engine, so Derby's reads stay plain.
     */
    DERBY("Apache Derby", "org.apache.derby.jdbc.EmbeddedDriver", List.of("derby", "derbyshared", "derbytools"),
            null, null, ReadsForUpdate.PLAIN, Set.of("42Y55", "42X05"), Set.of("40001"), Set.of("40XL1", "40XL2")) {
        @Override
        public String url(String database, String properties) {
            return "jdbc:derby:memory:" + database + ";create=true" + (properties.isEmpty() ? "" : ";" + properties);
        }

        @Override
        public String fileUrl(java.nio.file.Path file, String properties) {
            return "jdbc:derby:directory:" + file + ";create=true" + (properties.isEmpty() ? "" : ";" + properties);
        }

        @Override
        public String commitDurability() {
            return "its default: the log is forced (synced) to disk at each commit";
        }

        /** Derby's CREATE TABLE ... AS takes WITH NO DATA only: create, then fill. */
        @Override
        public List<String> copyTable(String schema, String table) {
            return List.of("CREATE TABLE " + schema + "." + table + " AS SELECT * FROM " + table + " WITH NO DATA",
                    "INSERT INTO " + schema + "." + table + " SELECT * FROM " + table);
        }

        /** A Derby database here is in memory and dropped with its JVM, and Derby has no DROP SCHEMA CASCADE. */
        @Override
        public String dropSchemaIfExists(String schema) {
            return null;
        }

        @Override
        public String referentialChecks(boolean on) {
            return null;
        }

        @Override
        public String guarantee(EngineConfig config, Isolation level) {
            if (level != Isolation.SERIALIZABLE) return genericGuarantee(level);
            return "Derby Developer's Guide (\"Isolation levels and concurrency\"): TRANSACTION_SERIALIZABLE"
                    + " allows no dirty, non-repeatable or phantom reads; Derby holds row locks to commit and"
                    + " locks ranges of an index (or the table) against phantoms, and ends deadlocks by"
                    + " rolling one transaction back (40001).";
        }

        /**
         * Derby's settings are system properties, read when it boots a database; a -D given to the
         * JVM (TPCC_JAVA_OPTS) wins. Derby writes derby.log into the working directory unless told
         * otherwise: target/ instead. It detects deadlocks only after a waiter has waited
         * derby.locks.deadlockTimeout (default 20 s) and gives up after derby.locks.waitTimeout (60 s):
         * a short run would commit nothing while its deadlocked terminals wait, so 1 s and 10 s, as
         * Derby's tuning guide suggests for work with deadlocks. (Set per database from every new
         * connection, as SYSCS_SET_DATABASE_PROPERTY, they deadlock the loader's threads on Derby's
         * property table, and Derby 10.16 then fails building the deadlock's message.)
         */
        @Override
        void beforeLoad() {
            if (System.getProperty("derby.stream.error.field") == null) {
                setIfAbsent("derby.stream.error.file", EngineJars.harnessTargetDir().resolve("derby.log").toString());
            }
            setIfAbsent("derby.locks.deadlockTimeout", "1");
            setIfAbsent("derby.locks.waitTimeout", "10");
        }

        /** An in-memory Derby database is dropped by connecting with ;drop=true, which answers 08006. */
        @Override
        public void shutdown(Engine engine, Connection c) {
            try {
                c.rollback();
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
            engine.connectUrlSuffix(";drop=true");
        }
    },

    /** PostgreSQL's FOR UPDATE OF names tables, not columns: plain FOR UPDATE (row locks). */
    POSTGRESQL("PostgreSQL", "org.postgresql.Driver", List.of("postgresql"), null, null, ReadsForUpdate.FOR_UPDATE,
            Set.of("42P01"), Set.of("40001"), Set.of("55P03")) {
        @Override
        public String url(String database, String properties) throws EngineException {
            PostgresServer server = PostgresServer.find();
            String props = properties.isEmpty() ? "" : "?" + properties.replace(';', '&');
            return server.url() + props;
        }

        /** The server keeps its data on disk whatever the configuration: the same database. */
        @Override
        public String fileUrl(java.nio.file.Path file, String properties) throws EngineException {
            return url(file.getFileName().toString(), properties);
        }

        @Override
        public String commitDurability() {
            return "its defaults (fsync on, synchronous_commit on): the WAL is flushed to disk at each commit,"
                    + " commits that wait together sharing a flush";
        }

        @Override
        public String dropTable(String table) {
            return "DROP TABLE IF EXISTS " + table + " CASCADE";
        }

        /** Turning foreign keys off (session_replication_role) takes a superuser: a restore checks them. */
        @Override
        public String referentialChecks(boolean on) {
            return null;
        }

        /**
         * As under H2: two New-Orders read one D_NEXT_O_ID from their snapshots and the second's
         * NEW_ORDER insert meets the first's key. PostgreSQL cannot tie the key to the earlier read,
         * so it reports 23505 rather than 40001; its documentation (15, 13.5 "Serialization Failure
         * Handling") names this case, a new key chosen from what was read, as one where a unique
         * violation is in effect a serialization failure that a retry cures.
         */
        @Override
        public AbortReason classify(SQLException e) {
            if ("23505".equals(e.getSQLState())) return AbortReason.SERIALIZATION_FAILURE;
            return super.classify(e);
        }

        @Override
        public String guarantee(EngineConfig config, Isolation level) {
            if (level != Isolation.SERIALIZABLE) return genericGuarantee(level);
            return "PostgreSQL 15 documentation (13.2.3, \"Serializable Isolation Level\"): Serializable Snapshot"
                    + " Isolation; every set of committed serializable transactions has the effect of some serial"
                    + " order, because the engine tracks read/write dependencies without blocking and aborts a"
                    + " transaction (40001) that could break it.";
        }

        @Override
        public List<String> isolationSessionSetup() {
            // a step that never resolves ends as a lock timeout rather than a hang
            return List.of("SET lock_timeout = '20s'");
        }
    },

    /** An engine the harness has no entry for ({@code --url}): standard SQL, the common SQLSTATEs. */
    GENERIC("", null, List.of(), null, null, ReadsForUpdate.FOR_UPDATE, Set.of(), Set.of("40001"), Set.of()) {
        @Override
        public AbortReason classify(SQLException e) {
            return AbortReason.classify(e);
        }
    };

    /** DatabaseMetaData.getDatabaseProductName() of the engine. */
    public final String product;
    public final String driverClass;
    /** Jar names in target/engines/ (without version) that make the driver: "h2" finds h2-2.3.232.jar. */
    public final List<String> jars;
    public final String user;
    public final String password;
    private final ReadsForUpdate readsForUpdate;
    private final Set<String> missingTable;
    private final Set<String> serialization;
    private final Set<String> lockTimeout;

    Dialect(String product, String driverClass, List<String> jars, String user, String password,
            ReadsForUpdate readsForUpdate, Set<String> missingTable, Set<String> serialization, Set<String> lockTimeout) {
        this.product = product;
        this.driverClass = driverClass;
        this.jars = jars;
        this.user = user;
        this.password = password;
        this.readsForUpdate = readsForUpdate;
        this.missingTable = missingTable;
        this.serialization = serialization;
        this.lockTimeout = lockTimeout;
    }

    /** The engine behind a connection, by its product name; GENERIC for one we do not know. */
    public static Dialect of(Connection c) throws SQLException {
        return ofProduct(c.getMetaData().getDatabaseProductName());
    }

    public static Dialect ofProduct(String product) {
        for (Dialect d : values()) if (d != GENERIC && d.product.equalsIgnoreCase(product)) return d;
        return GENERIC;
    }

    /** The engine a JDBC URL names ({@code --url}), GENERIC if none of ours. */
    public static Dialect ofUrl(String url) {
        String u = url == null ? "" : url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:hsqldb:")) return HSQLDB;
        if (u.startsWith("jdbc:h2:")) return H2;
        if (u.startsWith("jdbc:derby:")) return DERBY;
        if (u.startsWith("jdbc:postgresql:")) return POSTGRESQL;
        return GENERIC;
    }

    /** The JDBC URL of the in-memory database {@code database} with the configuration's properties. */
    public String url(String database, String properties) throws EngineException {
        return "jdbc:hsqldb:mem:" + database + (properties.isEmpty() ? "" : ";" + properties);
    }

    /**
     * The JDBC URL of a database in files at {@code file} (a peer's durable configuration) with its
     * setting for durable commits; HSQLDB's file databases are made by DatabaseLocation.
     */
    public String fileUrl(java.nio.file.Path file, String properties) throws EngineException {
        throw new EngineException(product + " runs in memory only here");
    }

    /** What the engine's durable configuration writes and syncs at each commit, for the report. */
    public String commitDurability() {
        return "write_delay=false: the .log is synced before a commit returns";
    }

    /** A CREATE TABLE or CREATE INDEX statement of standard SQL, as this engine should get it. */
    public String ddl(String statement) {
        return statement;
    }

    /** The statement that drops a table; {@link #isMissingTable} tells the error of one that is not there. */
    public String dropTable(String table) {
        return "DROP TABLE " + table;
    }

    public boolean isMissingTable(SQLException e) {
        return e.getSQLState() != null && missingTable.contains(e.getSQLState().toUpperCase(Locale.ROOT));
    }

    /**
     * How TPC-C writes a read that precedes an update of the same rows on this engine: the form it
     * accepts on every such read (a configuration's reads= option overrides it).
     */
    public ReadsForUpdate readsForUpdate() {
        return readsForUpdate;
    }

    /** The isolation level the benchmark runs at on this engine: SERIALIZABLE on all four. */
    public Isolation benchmarkIsolation() {
        return Isolation.SERIALIZABLE;
    }

    /** What the engine's own documentation says {@code level} guarantees, naming the document (one sentence). */
    public String guarantee(EngineConfig config, Isolation level) {
        return genericGuarantee(level);
    }

    static String genericGuarantee(Isolation level) {
        return switch (level) {
            case SERIALIZABLE -> "SQL standard: SERIALIZABLE means no dirty, non-repeatable or phantom reads and"
                    + " executions equivalent to a serial one; the engine's own documentation is not known here.";
            case REPEATABLE_READ -> "SQL standard: REPEATABLE READ rules out dirty and non-repeatable reads, not phantoms.";
            case READ_COMMITTED -> "SQL standard: READ COMMITTED rules out dirty reads only.";
            case READ_UNCOMMITTED -> "SQL standard: READ UNCOMMITTED rules out nothing but dirty writes.";
        };
    }

    /**
     * Why an attempt failed: deadlock victim, serialization failure or lock timeout (retried with
     * the same input), or something else. The SQLSTATEs are this engine's; a message that says
     * deadlock makes a deadlock whatever the state (H2 and Derby report theirs as 40001).
     */
    public AbortReason classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState().toUpperCase(Locale.ROOT);
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (state.equals("40P01") || (state.startsWith("40") && message.contains("deadlock"))) {
            return AbortReason.DEADLOCK;
        }
        if (lockTimeout.contains(state)) return AbortReason.LOCK_TIMEOUT;
        if (serialization.contains(state)) return AbortReason.SERIALIZATION_FAILURE;
        return AbortReason.OTHER;
    }

    /** Statements each session of the isolation table runs first (a lock timeout long enough to see a wait). */
    public List<String> isolationSessionSetup() {
        return List.of();
    }

    /**
     * The statements that copy {@code table}, rows only (no keys, no indexes), into {@code schema}
     * (LoadedCopy): the form H2 and PostgreSQL take; HSQLDB and Derby override it with theirs.
     */
    public List<String> copyTable(String schema, String table) {
        return List.of("CREATE TABLE " + schema + "." + table + " AS SELECT * FROM " + table);
    }

    /** The statement that drops {@code schema} and what is in it if it exists; null where no copy can outlive its JVM. */
    public String dropSchemaIfExists(String schema) {
        return "DROP SCHEMA IF EXISTS " + schema + " CASCADE";
    }

    /**
     * The statement that turns the whole database's foreign key checks off or on, null where the engine has
     * none a plain user may run: then a restore fills the tables parents first, one at a time, checked.
     */
    public String referentialChecks(boolean on) {
        return "SET DATABASE REFERENTIAL INTEGRITY " + (on ? "TRUE" : "FALSE");
    }

    /** Called before the engine's driver is first loaded in this JVM. */
    void beforeLoad() {
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) System.setProperty(property, value);
    }

    /** Lets go of the database behind {@code c} (HSQLDB's and H2's SHUTDOWN, Derby's drop); PostgreSQL's stays. */
    public void shutdown(Engine engine, Connection c) throws SQLException {
        shutdown(c);
    }

    void shutdown(Connection c) throws SQLException {
    }
}
