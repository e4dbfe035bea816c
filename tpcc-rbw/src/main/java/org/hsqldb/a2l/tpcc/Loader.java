package org.hsqldb.a2l.tpcc;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Populates the database as TPC-C 5.11 clause 4.3.3.1 says, in three phases so that every
 * foreign key's parent is committed before its children arrive: (1) items, warehouses and
 * districts, (2) stock and customers with their history, (3) orders with their lines and
 * new-orders. Within a phase, tasks (table chunks, districts) run on a pool of threads,
 * each with its own connection, batched inserts and a commit every few thousand rows.
 *
 * <p>Every task draws from its own seeded stream, so the same seed gives the same database
 * whatever the thread scheduling; the load time stamps come from one instant passed in.
 */
public final class Loader {

    /** What the run needs from the load: the NURand constants (clause 2.1.6.1) and the cost. */
    public record Result(double seconds, long rows, NURandConstants constants) {}

    private static final int BATCH = 500;
    private static final int ITEM_CHUNK = 25_000;
    private static final int ORDERS_PER_COMMIT = 100;
    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal INITIAL_BALANCE = new BigDecimal("-10.00");
    private static final BigDecimal INITIAL_PAYMENT = new BigDecimal("10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");

    private final Scale scale;
    private final long seed;
    private final Timestamp loadTime;
    private final ConnectionSource connections;
    private final int threads;
    private final PrintStream progress;
    private final AtomicLong rows = new AtomicLong();
    private final NURandConstants constants;
    private boolean constrained;

    public Loader(Scale scale, long seed, Instant loadTime, ConnectionSource connections, int threads,
                  PrintStream progress) {
        this.scale = scale;
        this.seed = seed;
        this.loadTime = Timestamp.from(loadTime);
        this.connections = connections;
        this.threads = Math.max(1, threads);
        this.progress = progress;
        this.constants = loadConstants(seed);
    }

    /** Loads into the constrained schema ({@link ClientShape#constrained}) instead of the harness'. */
    public Loader constrained(boolean constrained) {
        this.constrained = constrained;
        return this;
    }

    /** The C constants a load with this seed uses (the run's are derived from them). */
    public static NURandConstants loadConstants(long seed) {
        return NURandConstants.forLoad(TpccRandom.derived(seed, "nurand-load", 0));
    }

    public Result load() throws SQLException, InterruptedException {
        long start = System.nanoTime();
        long[] phaseEnds = new long[3];
        try (Connection c = connections.open()) {
            Schema.create(c, constrained);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "tpcc-loader");
            t.setDaemon(true);
            return t;
        });
        Thread reporter = startProgress(start);
        try {
            List<Task> phase = new ArrayList<>();
            for (int from = 1; from <= scale.items(); from += ITEM_CHUNK) {
                int lo = from, hi = Math.min(scale.items(), from + ITEM_CHUNK - 1);
                phase.add(c -> items(c, lo, hi));
            }
            for (int w = 1; w <= scale.warehouses(); w++) {
                int wid = w;
                phase.add(c -> warehouseAndDistricts(c, wid));
            }
            runPhase(pool, phase);
            phaseEnds[0] = System.nanoTime();

            phase.clear();
            for (int w = 1; w <= scale.warehouses(); w++) {
                int wid = w;
                for (int from = 1; from <= scale.items(); from += ITEM_CHUNK) {
                    int lo = from, hi = Math.min(scale.items(), from + ITEM_CHUNK - 1);
                    phase.add(c -> stock(c, wid, lo, hi));
                }
                for (int d = 1; d <= scale.districtsPerWarehouse(); d++) {
                    int did = d;
                    phase.add(c -> customersAndHistory(c, wid, did));
                }
            }
            runPhase(pool, phase);
            phaseEnds[1] = System.nanoTime();

            phase.clear();
            for (int w = 1; w <= scale.warehouses(); w++) {
                for (int d = 1; d <= scale.districtsPerWarehouse(); d++) {
                    int wid = w, did = d;
                    phase.add(c -> ordersAndLines(c, wid, did));
                }
            }
            runPhase(pool, phase);
            phaseEnds[2] = System.nanoTime();
        } finally {
            pool.shutdownNow();
            reporter.interrupt();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        progress.printf("load: %d rows in %.1f s (%s scale, %d warehouse(s), %d thread(s); phases %.1f + %.1f + %.1f s)%n",
                rows.get(), seconds, scale.name(), scale.warehouses(), threads, (phaseEnds[0] - start) / 1e9,
                (phaseEnds[1] - phaseEnds[0]) / 1e9, (phaseEnds[2] - phaseEnds[1]) / 1e9);
        return new Result(seconds, rows.get(), constants);
    }

    public NURandConstants constants() {
        return constants;
    }

    @FunctionalInterface
    private interface Task {
        void run(Connection c) throws SQLException;
    }

    private void runPhase(ExecutorService pool, List<Task> tasks) throws SQLException, InterruptedException {
        List<Future<?>> futures = new ArrayList<>();
        for (Task t : tasks) {
            futures.add(pool.submit(() -> {
                try (Connection c = connections.open()) {
                    c.setAutoCommit(false);
                    t.run(c);
                    c.commit();
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                for (Future<?> other : futures) other.cancel(true);
                Throwable cause = e.getCause();
                if (cause instanceof SQLException s) throw s;
                throw new IllegalStateException("load failed: " + cause, cause);
            }
        }
    }

    private Thread startProgress(long start) {
        long expected = scale.rowsToLoad();
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    TimeUnit.SECONDS.sleep(3);
                    long n = rows.get();
                    progress.printf("load: %2d%% (%d of ~%d rows) after %.0f s%n",
                            Math.min(99, n * 100 / expected), n, expected, (System.nanoTime() - start) / 1e9);
                }
            } catch (InterruptedException done) {
                // load finished
            }
        }, "tpcc-load-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Executes the batch when it is full; commits every {@code commitEvery} rows. */
    private final class Batch implements AutoCloseable {
        private final Connection c;
        private final PreparedStatement ps;
        private int pending;

        Batch(Connection c, String sql) throws SQLException {
            this.c = c;
            this.ps = c.prepareStatement(sql);
        }

        PreparedStatement row() {
            return ps;
        }

        void add() throws SQLException {
            ps.addBatch();
            if (++pending == BATCH) flush();
        }

        void flush() throws SQLException {
            if (pending > 0) {
                ps.executeBatch();
                rows.addAndGet(pending);
                pending = 0;
            }
        }

        void flushAndCommit() throws SQLException {
            flush();
            c.commit();
        }

        @Override
        public void close() throws SQLException {
            flush();
            ps.close();
        }
    }

    private void items(Connection c, int lo, int hi) throws SQLException {
        TpccRandom r = TpccRandom.derived(seed, "item", lo);
        try (Batch b = new Batch(c, "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?,?,?,?,?)")) {
            PreparedStatement ps = b.row();
            for (int i = lo; i <= hi; i++) {
                ps.setInt(1, i);
                ps.setInt(2, r.uniform(1, 10_000));
                ps.setString(3, r.astring(14, 24));
                ps.setBigDecimal(4, r.decimal(100, 10_000, 2));
                ps.setString(5, r.dataWithOriginal());
                b.add();
                if (i % 5000 == 0) b.flushAndCommit();
            }
        }
    }

    private void warehouseAndDistricts(Connection c, int w) throws SQLException {
        TpccRandom r = TpccRandom.derived(seed, "warehouse", w);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd)"
                        + " VALUES (?,?,?,?,?,?,?,?,?)")) {
            ps.setInt(1, w);
            ps.setString(2, r.astring(6, 10));
            address(ps, 3, r);
            ps.setBigDecimal(8, r.decimal(0, 2000, 4));
            ps.setBigDecimal(9, districtYtd().multiply(BigDecimal.valueOf(scale.districtsPerWarehouse())));
            ps.executeUpdate();
            rows.incrementAndGet();
        }
        try (Batch b = new Batch(c, "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city,"
                + " d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES (?,?,?,?,?,?,?,?,?,?,?)")) {
            PreparedStatement ps = b.row();
            for (int d = 1; d <= scale.districtsPerWarehouse(); d++) {
                ps.setInt(1, d);
                ps.setInt(2, w);
                ps.setString(3, r.astring(6, 10));
                address(ps, 4, r);
                ps.setBigDecimal(9, r.decimal(0, 2000, 4));
                ps.setBigDecimal(10, districtYtd());
                ps.setInt(11, scale.ordersPerDistrict() + 1);
                b.add();
            }
        }
    }

    /**
     * 30,000.00 at standard scale: the initial H_AMOUNT (10.00) of each of the district's customers,
     * so that conditions 3.3.2.8 and 3.3.2.9 also hold at the tests' smaller scale (W_YTD likewise).
     */
    private BigDecimal districtYtd() {
        return INITIAL_PAYMENT.multiply(BigDecimal.valueOf(scale.customersPerDistrict()));
    }

    /** street_1, street_2, city, state, zip starting at parameter {@code at}. */
    private static void address(PreparedStatement ps, int at, TpccRandom r) throws SQLException {
        ps.setString(at, r.astring(10, 20));
        ps.setString(at + 1, r.astring(10, 20));
        ps.setString(at + 2, r.astring(10, 20));
        ps.setString(at + 3, state(r));
        ps.setString(at + 4, r.zip());
    }

    private static String state(TpccRandom r) {
        return "" + (char) ('A' + r.uniform(0, 25)) + (char) ('A' + r.uniform(0, 25));
    }

    private void stock(Connection c, int w, int lo, int hi) throws SQLException {
        TpccRandom r = TpccRandom.derived(seed, "stock", (long) w * 1_000_000 + lo);
        try (Batch b = new Batch(c, "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02,"
                + " s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10,"
                + " s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            PreparedStatement ps = b.row();
            for (int i = lo; i <= hi; i++) {
                ps.setInt(1, i);
                ps.setInt(2, w);
                ps.setInt(3, r.uniform(10, 100));
                for (int d = 0; d < 10; d++) ps.setString(4 + d, r.astring(24, 24));
                ps.setInt(14, 0);
                ps.setInt(15, 0);
                ps.setInt(16, 0);
                ps.setString(17, r.dataWithOriginal());
                b.add();
                if (i % 5000 == 0) b.flushAndCommit();
            }
        }
    }

    private void customersAndHistory(Connection c, int w, int d) throws SQLException {
        TpccRandom r = TpccRandom.derived(seed, "customer", (long) w * 100 + d);
        int n = scale.customersPerDistrict();
        int sequentialNames = scale.maxLastNameNumber() + 1;
        try (Batch customers = new Batch(c, "INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last,"
                + " c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim,"
                + " c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
             Batch history = new Batch(c, "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date,"
                     + " h_amount, h_data) VALUES (?,?,?,?,?,?,?,?)")) {
            for (int from = 1; from <= n; from += 1000) {
                int to = Math.min(n, from + 999);
                PreparedStatement ps = customers.row();
                for (int id = from; id <= to; id++) {
                    int nameNumber = id <= sequentialNames
                            ? id - 1 : r.nurand(255, 0, scale.maxLastNameNumber(), constants.cLast());
                    ps.setInt(1, id);
                    ps.setInt(2, d);
                    ps.setInt(3, w);
                    ps.setString(4, r.astring(8, 16));
                    ps.setString(5, "OE");
                    ps.setString(6, TpccRandom.lastName(nameNumber));
                    address(ps, 7, r);
                    ps.setString(12, r.nstring(16, 16));
                    ps.setTimestamp(13, loadTime);
                    ps.setString(14, r.uniform(1, 100) <= 10 ? "BC" : "GC");
                    ps.setBigDecimal(15, CREDIT_LIMIT);
                    ps.setBigDecimal(16, r.decimal(0, 5000, 4));
                    ps.setBigDecimal(17, INITIAL_BALANCE);
                    ps.setBigDecimal(18, INITIAL_PAYMENT);
                    ps.setInt(19, 1);
                    ps.setInt(20, 0);
                    ps.setString(21, r.astring(300, 500));
                    customers.add();
                }
                customers.flush();
                PreparedStatement hs = history.row();
                for (int id = from; id <= to; id++) {
                    hs.setInt(1, id);
                    hs.setInt(2, d);
                    hs.setInt(3, w);
                    hs.setInt(4, d);
                    hs.setInt(5, w);
                    hs.setTimestamp(6, loadTime);
                    hs.setBigDecimal(7, INITIAL_PAYMENT);
                    hs.setString(8, r.astring(12, 24));
                    history.add();
                }
                history.flushAndCommit();
            }
        }
    }

    private void ordersAndLines(Connection c, int w, int d) throws SQLException {
        TpccRandom r = TpccRandom.derived(seed, "orders", (long) w * 100 + d);
        int n = scale.ordersPerDistrict();
        int firstUndelivered = scale.firstUndeliveredOrderId();
        int[] customerOfOrder = r.permutation(n);
        // within each commit, always orders -> order_line -> new_order: loader threads of
        // this phase then wait for each other's table locks in one order and cannot deadlock
        try (Batch orders = new Batch(c, "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id,"
                + " o_ol_cnt, o_all_local) VALUES (?,?,?,?,?,?,?,?)");
             Batch lines = new Batch(c, "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,"
                     + " ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"
                     + " VALUES (?,?,?,?,?,?,?,?,?,?)");
             Batch newOrders = new Batch(c, "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?,?,?)")) {
            for (int from = 1; from <= n; from += ORDERS_PER_COMMIT) {
                int to = Math.min(n, from + ORDERS_PER_COMMIT - 1);
                int[] lineCount = new int[to - from + 1];
                PreparedStatement os = orders.row();
                for (int o = from; o <= to; o++) {
                    lineCount[o - from] = r.uniform(5, 15);
                    os.setInt(1, o);
                    os.setInt(2, d);
                    os.setInt(3, w);
                    os.setInt(4, customerOfOrder[o - 1]);
                    os.setTimestamp(5, loadTime);
                    if (o < firstUndelivered) os.setInt(6, r.uniform(1, 10));
                    else os.setNull(6, Types.INTEGER);
                    os.setInt(7, lineCount[o - from]);
                    os.setInt(8, 1);
                    orders.add();
                }
                orders.flush();
                PreparedStatement ls = lines.row();
                for (int o = from; o <= to; o++) {
                    boolean delivered = o < firstUndelivered;
                    for (int l = 1; l <= lineCount[o - from]; l++) {
                        ls.setInt(1, o);
                        ls.setInt(2, d);
                        ls.setInt(3, w);
                        ls.setInt(4, l);
                        ls.setInt(5, r.uniform(1, scale.items()));
                        ls.setInt(6, w);
                        if (delivered) ls.setTimestamp(7, loadTime);
                        else ls.setNull(7, Types.TIMESTAMP);
                        ls.setInt(8, 5);
                        ls.setBigDecimal(9, delivered ? ZERO_AMOUNT : r.decimal(1, 999_999, 2));
                        ls.setString(10, r.astring(24, 24));
                        lines.add();
                    }
                }
                lines.flush();
                PreparedStatement ns = newOrders.row();
                for (int o = Math.max(from, firstUndelivered); o <= to; o++) {
                    ns.setInt(1, o);
                    ns.setInt(2, d);
                    ns.setInt(3, w);
                    newOrders.add();
                }
                newOrders.flushAndCommit();
            }
        }
    }
}
