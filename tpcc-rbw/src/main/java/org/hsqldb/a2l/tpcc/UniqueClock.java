package org.hsqldb.a2l.tpcc;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock whose instants never repeat, at the microsecond precision of an SQL TIMESTAMP: each
 * call returns the base clock's time, or one microsecond after the previous instant if that is
 * later. Transactions stamp H_DATE and OL_DELIVERY_D with their attempt's instant, so with this
 * clock a committed Payment or Delivery can be found again by its time stamp alone.
 */
public final class UniqueClock extends Clock {

    private final Clock base;
    private final AtomicLong lastMicros;

    public UniqueClock(Clock base) {
        this(base, new AtomicLong(Long.MIN_VALUE));
    }

    private UniqueClock(Clock base, AtomicLong lastMicros) {
        this.base = base;
        this.lastMicros = lastMicros;
    }

    @Override
    public Instant instant() {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, base.instant());
        long next = lastMicros.accumulateAndGet(now, (last, wall) -> Math.max(wall, last + 1));
        return Instant.EPOCH.plus(next, ChronoUnit.MICROS);
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new UniqueClock(base.withZone(zone), lastMicros);
    }
}
