package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;

/**
 * DIR/tpcc-load.properties: written once the load of a file database has finished and been
 * checkpointed, so a later run can reuse the database (its NURand constants come from the load's
 * seed) and {@code tpcc verify} knows its scale. A database directory without it was killed
 * while loading.
 */
record LoadRecord(String config, String urlProperties, boolean tiny, int warehouses, long seed, long rows,
                  String loadedAt) {

    static final String FILE = "tpcc-load.properties";

    static LoadRecord of(EngineConfig config, Scale scale, long seed, long rows, String loadedAt) {
        return new LoadRecord(config.name(), config.urlProperties(), !scale.isStandard(), scale.warehouses(), seed,
                rows, loadedAt);
    }

    Scale scale() {
        return tiny ? Scale.tiny(warehouses) : Scale.standard(warehouses);
    }

    String describe() {
        return "loaded " + loadedAt + " by " + config + " (" + urlProperties + "), " + warehouses + " warehouse(s)"
                + (tiny ? " at the tests' tiny scale" : "") + ", seed " + seed + ", " + rows + " rows";
    }

    /** The record, or null when the directory has none. */
    static LoadRecord read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) return null;
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        try {
            return new LoadRecord(p.getProperty("config"), p.getProperty("url_properties", ""),
                    "tiny".equals(p.getProperty("scale")), Integer.parseInt(p.getProperty("warehouses")),
                    Long.parseLong(p.getProperty("seed")), Long.parseLong(p.getProperty("rows", "0")),
                    p.getProperty("loaded_at", "?"));
        } catch (RuntimeException e) {
            throw new IOException(file + " is damaged: " + e.getMessage(), e);
        }
    }

    void write(Path dir) throws IOException {
        Properties p = new Properties();
        p.setProperty("config", config);
        p.setProperty("url_properties", urlProperties);
        p.setProperty("scale", tiny ? "tiny" : "standard");
        p.setProperty("warehouses", "" + warehouses);
        p.setProperty("seed", "" + seed);
        p.setProperty("rows", "" + rows);
        p.setProperty("loaded_at", loadedAt);
        // written aside and renamed, so a kill leaves either no record or a whole one
        Path tmp = dir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp)) {
            p.store(w, "TPC-C database loaded by tpcc-rbw; without this file the load did not finish");
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Why {@code config} at {@code scale} cannot reuse this database, or null. */
    String mismatch(EngineConfig config, Scale scale) {
        if (!urlProperties.equals(config.urlProperties())) {
            return "it was created by " + this.config + " (" + urlProperties + ") and HSQLDB keeps that mode;"
                    + " use a configuration with the same URL properties or another --database-dir";
        }
        if (scale.warehouses() != warehouses || scale.isStandard() == tiny) {
            return "it holds " + warehouses + " warehouse(s)" + (tiny ? " at tiny scale" : "") + ", asked for "
                    + scale.warehouses() + (scale.isStandard() ? "" : " at tiny scale") + " (give --warehouses "
                    + warehouses + ")";
        }
        return null;
    }
}
