package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.index.NodeAVL;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.PersistentStore;
import org.junit.jupiter.api.Test;

/** PERFORM CHECK ... INDEX walks MEMORY tables' AVL indexes and reports damage. */
@RequiresPatch("Check-the-indexes-of-MEMORY-tables-with-PERFORM-CHEC")
class IndexCheckTest {

    @Test
    void soundIndexesReportNoProblemAndCountEveryRow() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:indexcheck1");
             Statement s = c.createStatement()) {
            createAndFill(s);
            assertEquals(List.of(), IndexIntegrity.problems(c));
        }
    }

    @Test
    void aWrongBalanceFactorIsReportedAndFixRepairsIt() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:indexcheck2");
             Statement s = c.createStatement()) {
            createAndFill(s);
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            PersistentStore store = t.getRowStore(session);
            NodeAVL root = (NodeAVL) store.getAccessor(t.getIndex(1));
            int balance = root.iBalance;
            root.iBalance = balance == 0 ? 1 : -balance;

            List<String> problems = IndexIntegrity.problems(c);
            assertFalse(problems.isEmpty(), "a corrupted balance factor must be found");
            assertTrue(problems.stream().anyMatch(p -> p.contains("balance")), problems.toString());

            s.execute("PERFORM CHECK TABLE t INDEX AND FIX");
            assertEquals(List.of(), IndexIntegrity.problems(c));
        }
    }

    @Test
    void aRowMissingFromAnIndexIsReported() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:indexcheck3");
             Statement s = c.createStatement()) {
            createAndFill(s);
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            PersistentStore store = t.getRowStore(session);
            // unlink a leaf from the secondary index only
            NodeAVL node = (NodeAVL) store.getAccessor(t.getIndex(2));
            while (true) {
                NodeAVL next = node.child(store, true);
                if (next == null) {
                    next = node.child(store, false);
                }
                if (next == null) {
                    break;
                }
                node = next;
            }
            NodeAVL leaf = node;
            NodeAVL parent = findParent((NodeAVL) store.getAccessor(t.getIndex(2)), leaf, store);
            boolean left = parent.child(store, true) == leaf;
            parent.set(store, left, null);

            List<String> problems = IndexIntegrity.problems(c);
            assertFalse(problems.isEmpty(), "an index with a row missing must be found");
        }
    }

    private static NodeAVL findParent(NodeAVL from, NodeAVL target, PersistentStore store) {
        if (from == null) {
            return null;
        }
        if (from.child(store, true) == target || from.child(store, false) == target) {
            return from;
        }
        NodeAVL p = findParent(from.child(store, true), target, store);
        return p != null ? p : findParent(from.child(store, false), target, store);
    }

    private static void createAndFill(Statement s) throws SQLException {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(10) UNIQUE)");
        s.execute("CREATE INDEX t_v ON t (v)");
        for (int i = 0; i < 500; i++) {
            s.execute("INSERT INTO t VALUES (" + i + ", " + (i % 17) + ", 'w" + i + "')");
        }
        s.execute("DELETE FROM t WHERE MOD(id, 3) = 0");
        s.execute("UPDATE t SET v = v + 1 WHERE MOD(id, 5) = 0");
    }
}
