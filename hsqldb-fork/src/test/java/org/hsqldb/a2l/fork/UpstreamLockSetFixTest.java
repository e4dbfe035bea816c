package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The upstream fixes at the head of the patch series that make a statement's lock set name
 * every table it reaches, checked in upstream's own LOCKS mode: the fork's lock set names the
 * table, unmodified 2.7.4's does not (so each test shows the bug it fixes, and would fail
 * without the fix). The lock set is what {@code Statement.getTableNamesForRead/Write()} say,
 * which TransactionManager2PL locks; the statement is compiled through the session behind the
 * JDBC connection, by reflection so that the same code reads both jars.
 */
class UpstreamLockSetFixTest {

    private static final AtomicInteger databases = new AtomicInteger();

    /** The names a statement locks for reading ("R") or writing ("W") after the setup SQL. */
    private static Set<String> lockNames(boolean fork, String kind, String statement, String... setup)
            throws Exception {
        String url = "jdbc:hsqldb:mem:lockset" + databases.incrementAndGet();
        try (Connection c = fork ? Engines.fork(url) : Engines.upstream(url)) {
            try (Statement s = c.createStatement()) {
                for (String sql : setup) {
                    s.execute(sql);
                }
            }
            Object session = c.getClass().getMethod("getSession").invoke(c);
            Object cs = session.getClass().getMethod("compileStatement", String.class).invoke(session, statement);
            Object names = cs.getClass().getMethod(kind.equals("W") ? "getTableNamesForWrite" : "getTableNamesForRead")
                    .invoke(cs);
            Set<String> out = new TreeSet<>();
            for (int i = 0; i < Array.getLength(names); i++) {
                Object name = Array.get(names, i);
                out.add((String) name.getClass().getField("name").get(name));
            }
            return out;
        }
    }

    /** The fork locks {@code table}; upstream does not. */
    private static void forkLocksWhatUpstreamMisses(String table, String kind, String statement, String... setup)
            throws Exception {
        Set<String> fork = lockNames(true, kind, statement, setup);
        Set<String> upstream = lockNames(false, kind, statement, setup);
        assertTrue(fork.contains(table), kind + " locks of the fork for " + statement + ": " + fork);
        assertFalse(upstream.contains(table), "upstream 2.7.4 now locks " + table + " for " + statement
                + " (" + upstream + "): the bug this test shows is gone upstream");
    }

    @Test
    @RequiresPatch("Lock-the-parents-of-a-new-table")
    void createTableLocksTheParentOfItsForeignKey() throws Exception {
        forkLocksWhatUpstreamMisses("P", "W", "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))",
                "CREATE TABLE p (id INT PRIMARY KEY)");
    }

    @Test
    @RequiresPatch("Lock-every-table-that-foreign-keys")
    void deletingAParentReadsItsNoActionChild() throws Exception {
        forkLocksWhatUpstreamMisses("C", "R", "DELETE FROM p WHERE id = 2",
                "CREATE TABLE p (id INT PRIMARY KEY)", "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))");
    }

    @Test
    @RequiresPatch("Lock-every-table-that-foreign-keys")
    void aCascadeWritesWhatTheChildsTriggerWrites() throws Exception {
        forkLocksWhatUpstreamMisses("AUDIT", "W", "DELETE FROM p WHERE id = 1",
                "CREATE TABLE p (id INT PRIMARY KEY)",
                "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE CASCADE)",
                "CREATE TABLE audit (id INT)",
                "CREATE TRIGGER c_del AFTER DELETE ON c REFERENCING OLD ROW AS o FOR EACH ROW INSERT INTO audit VALUES (o.id)");
    }

    @Test
    @RequiresPatch("Lock-what-REPLACE-ON-DUPLICATE-KEY-UPDATE")
    void onDuplicateKeyUpdateWritesWhatItsUpdateCascadesTo() throws Exception {
        forkLocksWhatUpstreamMisses("C", "W", "INSERT INTO p VALUES (1, 10) ON DUPLICATE KEY UPDATE v = 11",
                "SET DATABASE SQL SYNTAX MYS TRUE",
                "CREATE TABLE p (id INT PRIMARY KEY, v INT UNIQUE)",
                "CREATE TABLE c (id INT PRIMARY KEY, pv INT REFERENCES p (v) ON UPDATE CASCADE)");
    }

    @Test
    @RequiresPatch("Lock-the-tables-CREATE-TABLE-fills")
    void createTableAsQueryLocksTheTableItFills() throws Exception {
        forkLocksWhatUpstreamMisses("X", "W", "CREATE TABLE x AS (SELECT * FROM p) WITH DATA",
                "CREATE TABLE p (id INT PRIMARY KEY)");
    }

    @Test
    @RequiresPatch("Lock-the-tables-CREATE-TABLE-fills")
    void dropTableCascadeLocksTheTablesItRebuilds() throws Exception {
        forkLocksWhatUpstreamMisses("C", "W", "DROP TABLE p CASCADE",
                "CREATE TABLE p (id INT PRIMARY KEY)", "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))");
    }

    /** z -> a -> b -> c, each trigger created before the next table has its own. */
    static final String[] FORWARD_CHAIN = {
        "CREATE TABLE z (id INT)", "CREATE TABLE a (id INT)", "CREATE TABLE b (id INT)", "CREATE TABLE c (id INT)",
        "CREATE PROCEDURE pz() MODIFIES SQL DATA INSERT INTO z VALUES 7",
        "CREATE TRIGGER tz AFTER INSERT ON z REFERENCING NEW ROW AS n FOR EACH ROW INSERT INTO a VALUES (n.id)",
        "CREATE TRIGGER ta AFTER INSERT ON a REFERENCING NEW ROW AS n FOR EACH ROW INSERT INTO b VALUES (n.id)",
        "CREATE TRIGGER tb AFTER INSERT ON b REFERENCING NEW ROW AS n FOR EACH ROW INSERT INTO c VALUES (n.id)"};

    @Test
    @RequiresPatch("Lock-what-trigger-chains-reach")
    void aThreeHopTriggerChainLocksItsLastTable() throws Exception {
        forkLocksWhatUpstreamMisses("C", "W", "INSERT INTO z VALUES 1", FORWARD_CHAIN);
    }

    @Test
    @RequiresPatch("Lock-what-trigger-chains-reach")
    void aProcedureThatStartsAChainLocksItsLastTable() throws Exception {
        forkLocksWhatUpstreamMisses("C", "W", "CALL pz()", FORWARD_CHAIN);
    }

    @Test
    @RequiresPatch("Lock-what-trigger-chains-reach")
    void aForeignKeyAddedAtTheEndOfAChainIsLockedFromItsStart() throws Exception {
        String[] setup = java.util.stream.Stream.concat(java.util.Arrays.stream(FORWARD_CHAIN), java.util.stream.Stream.of(
                "CREATE TABLE d (id INT PRIMARY KEY)", "ALTER TABLE c ADD CONSTRAINT c_pk PRIMARY KEY (id)",
                "ALTER TABLE d ADD CONSTRAINT d_c FOREIGN KEY (id) REFERENCES c (id) ON DELETE CASCADE",
                "CREATE TRIGGER tz_del AFTER INSERT ON z FOR EACH ROW DELETE FROM c")).toArray(String[]::new);
        // tz_del deletes from c, whose cascade now reaches d
        forkLocksWhatUpstreamMisses("D", "W", "CALL pz()", setup);
    }

    @Test
    @RequiresPatch("Recompile-routines-whose-lock-sets")
    void aProcedureCompiledBeforeATriggerWritesWhatTheTriggerWrites() throws Exception {
        forkLocksWhatUpstreamMisses("AUDIT", "W", "CALL clear_t()",
                "CREATE TABLE t (id INT PRIMARY KEY)", "CREATE TABLE audit (id INT)",
                "CREATE PROCEDURE clear_t() MODIFIES SQL DATA DELETE FROM t",
                "CREATE TRIGGER t_del AFTER DELETE ON t FOR EACH ROW INSERT INTO audit VALUES (1)");
    }

}
