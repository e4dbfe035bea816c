package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens connections to the database under test (one per terminal or loader thread). */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;
}
