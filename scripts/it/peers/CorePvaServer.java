// A real PVA server for the black-box checks: a core-pva 4.7.3 PVAServer hosting the PV names
// given as arguments, configured by the usual EPICS_PVA*_ environment variables (core-pva reads
// them itself), in a process of its own. Prints "READY <tcp port>" once it serves, then runs until
// it is killed. Run as a single-file program:
//   java -cp core-pva-4.7.3.jar scripts/it/peers/CorePvaServer.java NAME...
import org.epics.pva.data.PVAInt;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;

public class CorePvaServer {
    public static void main(String[] names) throws Exception {
        PVAServer server = new PVAServer();
        for (String name : names) {
            server.createPV(name, new PVAStructure("", "epics:nt/NTScalar:1.0", new PVAInt("value", 1)));
        }
        System.out.println("READY " + server.getTCPAddress(false).getPort());
        System.out.flush();
        Thread.currentThread().join(); // until killed
    }
}
