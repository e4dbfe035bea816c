import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

/**
 * Run with the fork jar alone on the class path (java -cp JAR DropInProbe.java):
 * the driver must register itself through META-INF/services, answer a query
 * and name its version.
 */
public class DropInProbe {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:hsqldb:mem:probe", "SA", "");
             ResultSet rs = c.createStatement().executeQuery("SELECT 1 FROM (VALUES(0))")) {
            rs.next();
            System.out.println("answer=" + rs.getInt(1));
            System.out.println("driver=" + DriverManager.getDriver("jdbc:hsqldb:mem:probe").getClass().getName());
            System.out.println("version=" + c.getMetaData().getDatabaseProductVersion());
        }
    }
}
