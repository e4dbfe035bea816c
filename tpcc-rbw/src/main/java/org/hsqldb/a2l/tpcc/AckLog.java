package org.hsqldb.a2l.tpcc;

import java.io.FileOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The client's side file of acknowledged commits: one line per committed write transaction,
 * appended after {@code commit()} returned. Each line goes to the operating system in a single
 * write() before the terminal starts its next transaction, so it survives the process being
 * killed (not a power cut: nothing is fsync'ed, and a kill does not lose the page cache).
 *
 * <pre>
 * NO  w d o_id c_id ol_cnt o_entry_d
 * PAY w d c_w c_d c_id h_amount h_date
 * DEL w carrier ol_delivery_d d:o_id,d:o_id,...   ("-" when every district was empty)
 * </pre>
 * A last line without its newline is a write the kill cut short: it is counted, not checked.
 */
public final class AckLog implements Benchmark.CommitListener, AutoCloseable {

    /** What a side file holds: the complete lines, and whether a torn last line was dropped. */
    public record Contents(List<CommitReceipt> receipts, boolean tornLastLine) {}

    private final FileOutputStream out;

    private AckLog(FileOutputStream out) {
        this.out = out;
    }

    /** Opens {@code file} for appending (a second run on the same database adds to it). */
    public static AckLog append(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        return new AckLog(new FileOutputStream(file.toFile(), true));
    }

    @Override
    public void committed(CommitReceipt receipt) throws IOException {
        if (receipt == null) return;
        byte[] line = (format(receipt) + "\n").getBytes(StandardCharsets.US_ASCII);
        // unbuffered: one write() per line, so a line is with the OS before the next transaction starts
        synchronized (this) {
            out.write(line);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    public static Contents read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        List<CommitReceipt> receipts = new ArrayList<>();
        int start = 0, lineNo = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) return new Contents(receipts, true);
            lineNo++;
            String line = text.substring(start, nl);
            start = nl + 1;
            if (line.isBlank()) continue;
            try {
                receipts.add(parse(line));
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + lineNo + ": not an acknowledgement: " + line, e);
            }
        }
        return new Contents(receipts, false);
    }

    static String format(CommitReceipt r) {
        if (r instanceof CommitReceipt.NewOrder n) {
            return "NO " + n.warehouseId() + " " + n.districtId() + " " + n.orderId() + " " + n.customerId() + " "
                    + n.lineCount() + " " + n.entryDate();
        }
        if (r instanceof CommitReceipt.Payment p) {
            return "PAY " + p.warehouseId() + " " + p.districtId() + " " + p.customerWarehouseId() + " "
                    + p.customerDistrictId() + " " + p.customerId() + " " + p.amount().toPlainString() + " " + p.date();
        }
        CommitReceipt.Delivery d = (CommitReceipt.Delivery) r;
        StringJoiner orders = new StringJoiner(",");
        d.delivered().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> orders.add(e.getKey() + ":" + e.getValue()));
        return "DEL " + d.warehouseId() + " " + d.carrierId() + " " + d.deliveryDate() + " "
                + (d.delivered().isEmpty() ? "-" : orders.toString());
    }

    static CommitReceipt parse(String line) {
        String[] f = line.strip().split(" ");
        switch (f[0]) {
            case "NO" -> {
                expect(f, 7);
                return new CommitReceipt.NewOrder(i(f[1]), i(f[2]), i(f[3]), i(f[4]), i(f[5]), Instant.parse(f[6]));
            }
            case "PAY" -> {
                expect(f, 8);
                return new CommitReceipt.Payment(i(f[1]), i(f[2]), i(f[3]), i(f[4]), i(f[5]), new BigDecimal(f[6]),
                        Instant.parse(f[7]));
            }
            case "DEL" -> {
                expect(f, 5);
                Map<Integer, Integer> delivered = new LinkedHashMap<>();
                if (!f[4].equals("-")) {
                    for (String pair : f[4].split(",")) {
                        String[] dn = pair.split(":");
                        expect(dn, 2);
                        delivered.put(i(dn[0]), i(dn[1]));
                    }
                }
                return new CommitReceipt.Delivery(i(f[1]), i(f[2]), Instant.parse(f[3]), delivered);
            }
            default -> throw new IllegalArgumentException("unknown kind " + f[0]);
        }
    }

    private static void expect(String[] fields, int n) {
        if (fields.length != n) throw new IllegalArgumentException(n + " fields expected, found " + fields.length);
    }

    private static int i(String s) {
        return Integer.parseInt(s);
    }
}
