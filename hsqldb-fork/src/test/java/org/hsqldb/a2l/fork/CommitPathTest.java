package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.Database;
import org.hsqldb.Session;
import org.hsqldb.jdbc.JDBCConnection;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A commit whose log cannot be written ends its transaction cleanly: whatever the commit
 * call reports, no lock outlives the transaction and the other sessions go on. The log's
 * output stream is replaced, in the running database, by one that fails every write, as a
 * full or broken disk would; an UPDATE that A2L makes in place (logged at commit as an
 * UPDATE statement) and an INSERT (logged as upstream logs it) are committed through it.
 */
class CommitPathTest {

    private static final AtomicInteger databases = new AtomicInteger();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "LF", "A2L", "A2L_LATCHED"})
    @RequiresPatch("Update-non-indexed-columns-in-place")
    void aCommitWhoseLogCannotBeWrittenLeavesNoLockBehind(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:file:" + dir.resolve("db" + databases.incrementAndGet())
                + ";hsqldb.write_delay=false");
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b")) {
            a.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            a.execute("INSERT INTO t VALUES (1, 0), (2, 0)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);

            breakTheLog(a.connection());
            a.execute("UPDATE t SET v = v + 1 WHERE id = 1");
            a.execute("INSERT INTO t VALUES (3, 0)");
            try {
                a.commit();
            } catch (SQLException e) {
                // reporting the failure is allowed; holding on to the locks is not
            }

            // the other session updates the same row and reads the whole table: it would wait
            // for ever for locks the failed commit kept
            Future<Integer> update = b.submit("UPDATE t SET v = v + 10 WHERE id = 1");
            assertEquals(1, SessionThread.await(update));
            assertEquals(3, b.queryLong("SELECT COUNT(*) FROM t"));
            try {
                b.commit();
            } catch (SQLException e) {
                // its commit cannot be logged either
            }
            assertEquals(11, a.queryLong("SELECT v FROM t WHERE id = 1"));
            a.rollback();
            if (mode != EngineMode.LOCKS && mode != EngineMode.MVLOCKS) {
                assertEquals(0, a.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"
                        + " WHERE SESSION_ID <> SESSION_ID()"));
            }
            try {
                a.execute("SHUTDOWN IMMEDIATELY");
            } catch (SQLException e) {
                // the log is broken; the files go with the temporary directory
            }
        }
    }

    /** Makes every further write to the database's redo log fail with an IOException. */
    private static void breakTheLog(Connection c) throws Exception {
        Session session = (Session) ((JDBCConnection) c).getSession();
        Database database = session.getDatabase();
        Object log = field(database.logger, "log");
        Object writer = field(log, "dbLogWriter");
        Field stream = findField(writer.getClass(), "fileStreamOut");
        stream.setAccessible(true);
        stream.set(writer, new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("no space left on device (injected)");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("no space left on device (injected)");
            }

            @Override
            public void flush() throws IOException {
                throw new IOException("no space left on device (injected)");
            }
        });
    }

    private static Object field(Object o, String name) throws Exception {
        Field f = findField(o.getClass(), name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static Field findField(Class<?> c, String name) throws NoSuchFieldException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                return k.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name + " in " + c);
    }

}
