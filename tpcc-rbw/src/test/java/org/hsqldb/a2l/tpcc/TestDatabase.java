package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;

/** A loaded in-memory database on the unmodified upstream jar (target/engines), closed by SHUTDOWN. */
final class TestDatabase implements AutoCloseable {

    private static final AtomicInteger NAMES = new AtomicInteger();

    final Engine engine;
    final Connection connection;
    final Scale scale;
    final Loader.Result load;

    private TestDatabase(Engine engine, Connection connection, Scale scale, Loader.Result load) {
        this.engine = engine;
        this.connection = connection;
        this.scale = scale;
        this.load = load;
    }

    static TestDatabase load(String config, Scale scale, long seed, Clock clock) throws Exception {
        return load(config, scale, seed, clock, false);
    }

    /** {@code constrained}: into the constrained schema ({@link ClientShape#constrained}). */
    static TestDatabase load(String config, Scale scale, long seed, Clock clock, boolean constrained)
            throws Exception {
        EngineConfig c = EngineRegistry.load().find(config).orElseThrow();
        Engine engine = Engine.load(c, EngineJars.locate(null, null), "test" + NAMES.incrementAndGet());
        Connection admin = engine.connect();
        Loader.Result load = new Loader(scale, seed, clock.instant(), engine::connect, 2, System.out)
                .constrained(constrained).load();
        return new TestDatabase(engine, admin, scale, load);
    }

    Connection connect() throws SQLException {
        return engine.connect();
    }

    @Override
    public void close() throws SQLException {
        engine.shutdown(connection);
        connection.close();
    }
}
