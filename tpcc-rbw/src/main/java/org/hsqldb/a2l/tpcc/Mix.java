package org.hsqldb.a2l.tpcc;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Workload mixes: percent of NewOrder/Payment/Delivery/OrderStatus/StockLevel (tpcc-rbw/README.md, "How we measure"). */
public enum Mix {
    M8_92("8-92", 45, 43, 4, 4, 4),
    M50_50("50-50", 25, 23, 2, 25, 25),
    M80_20("80-20", 10, 9, 1, 40, 40),
    M100_0("100-0", 0, 0, 0, 50, 50);

    public final String label;
    private final int[] percent; // indexed by TxnType.ordinal()

    Mix(String label, int... percent) {
        this.label = label;
        this.percent = percent;
        if (Arrays.stream(percent).sum() != 100) throw new IllegalStateException(label);
    }

    public int percent(TxnType t) {
        return percent[t.ordinal()];
    }

    /** True when the mix runs only Order-Status and Stock-Level, which write nothing. */
    public boolean readOnly() {
        return percent(TxnType.NEW_ORDER) + percent(TxnType.PAYMENT) + percent(TxnType.DELIVERY) == 0;
    }

    /** The transaction type for a draw in [1, 100]. */
    public TxnType pick(int draw) {
        int acc = 0;
        for (TxnType t : TxnType.values()) {
            acc += percent[t.ordinal()];
            if (draw <= acc) return t;
        }
        throw new IllegalArgumentException("draw out of [1,100]: " + draw);
    }

    public static Mix parse(String s) {
        for (Mix m : values()) if (m.label.equals(s)) return m;
        throw new IllegalArgumentException("unknown mix '" + s + "' (" + labels() + ")");
    }

    public static String labels() {
        return Arrays.stream(values()).map(m -> m.label).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return label;
    }
}
