package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AckLogTest {

    @TempDir
    Path tmp;

    static final Instant T = Instant.parse("2025-03-04T05:06:07.123456Z");

    static final List<CommitReceipt> RECEIPTS = List.of(
            new CommitReceipt.NewOrder(2, 7, 3001, 42, 11, T),
            new CommitReceipt.Payment(1, 3, 2, 9, 1234, new BigDecimal("4999.50"), T.plusNanos(1000)),
            new CommitReceipt.Delivery(1, 6, T.plusNanos(2000), Map.of(1, 2101, 10, 2105)),
            new CommitReceipt.Delivery(2, 1, T.plusNanos(3000), Map.of()));

    @Test
    void linesReadBackAsTheyWereWritten() throws IOException {
        Path file = tmp.resolve("sub/acks.txt");
        try (AckLog log = AckLog.append(file)) {
            for (CommitReceipt r : RECEIPTS) log.committed(r);
            log.committed(null);
        }
        assertEquals("NO 2 7 3001 42 11 2025-03-04T05:06:07.123456Z", Files.readAllLines(file).get(0));
        assertEquals("DEL 1 6 2025-03-04T05:06:07.123458Z 1:2101,10:2105", Files.readAllLines(file).get(2));
        AckLog.Contents c = AckLog.read(file);
        assertEquals(RECEIPTS, c.receipts());
        assertFalse(c.tornLastLine());
    }

    @Test
    void aLineTheKillCutShortIsLeftOutAndSaidSo() throws IOException {
        Path file = tmp.resolve("acks.txt");
        try (AckLog log = AckLog.append(file)) {
            log.committed(RECEIPTS.get(0));
        }
        Files.writeString(file, "PAY 1 3 2 9 12", StandardOpenOption.APPEND);
        AckLog.Contents c = AckLog.read(file);
        assertEquals(List.of(RECEIPTS.get(0)), c.receipts());
        assertTrue(c.tornLastLine());
    }

    @Test
    void aDamagedLineInTheMiddleIsAnError() throws IOException {
        Path file = tmp.resolve("acks.txt");
        Files.writeString(file, "NO 1 2 3\nNO 2 7 3001 42 11 2025-03-04T05:06:07.123456Z\n");
        IOException e = assertThrows(IOException.class, () -> AckLog.read(file));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }

    @Test
    void theUniqueClockNeverRepeatsAnInstantEvenWhenTimeStandsStill() throws InterruptedException {
        Clock frozen = Clock.fixed(T, ZoneOffset.UTC);
        UniqueClock clock = new UniqueClock(frozen);
        Set<Instant> seen = ConcurrentHashMap.newKeySet();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) seen.add(clock.instant());
            });
            threads[t].start();
        }
        for (Thread t : threads) t.join();
        assertEquals(40_000, seen.size());
        Set<Long> micros = new HashSet<>();
        for (Instant i : seen) {
            assertEquals(0, i.getNano() % 1000, "whole microseconds, what a TIMESTAMP keeps");
            micros.add(i.getEpochSecond() * 1_000_000 + i.getNano() / 1000);
        }
        assertEquals(40_000, micros.size());
        assertEquals(T, seen.stream().min(Instant::compareTo).orElseThrow());
    }
}
