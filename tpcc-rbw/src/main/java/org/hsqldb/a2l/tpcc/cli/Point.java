package org.hsqldb.a2l.tpcc.cli;

import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;

/** One measurement point of a {@link MeasurementRun}: statement order x mix x clients. */
public record Point(StatementOrder order, Mix mix, int clients) {

    /** {@code order:mix:clients}, e.g. {@code rbw:8-92:4}. */
    public static Point parse(String s) {
        String[] f = s.split(":");
        if (f.length != 3) throw new UsageException("point '" + s + "' is not order:mix:clients");
        try {
            int clients = Integer.parseInt(f[2]);
            if (clients < 1) throw new UsageException("clients must be at least 1 in point '" + s + "'");
            return new Point(StatementOrder.parse(f[0]), Mix.parse(f[1]), clients);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public String dirName() {
        return order.label + "_" + mix.label + "_c" + clients;
    }

    @Override
    public String toString() {
        return order.label + ":" + mix.label + ":" + clients;
    }
}
