// The meeting point of tests/formats/test_concurrent_runs.py: Hadoop's local file system, except that a process
// about to write its first data file into one table waits there until the other process has reached the same
// point. Both runs have then chosen their window and begun their table transaction (Delta's snapshot, Iceberg's
// base metadata), and neither has committed: their writes overlap, whatever the speed of either process.
//
// The driver sets it as fs.file.impl of its own Spark and arms it by writing the rule into the file
// INC_JOIN_BARRIER_RULE names:
//
//   <table directory name>   wait before creating a .parquet file under that directory (not under _delta_log)
//
// A process marks its arrival with the file arrived-<INC_JOIN_BARRIER_NAME> beside the rule and goes on when
// another arrived-* file is there (or after INC_JOIN_BARRIER_SECONDS, default 300, saying so on stdout).
package incjoin.barrier;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

public class BarrierFileSystem extends LocalFileSystem {
    private static boolean passed = false;

    private static String rule() throws IOException {
        String file = System.getenv("INC_JOIN_BARRIER_RULE");
        if (file == null || !Files.exists(Paths.get(file))) {
            return null;
        }
        return new String(Files.readAllBytes(Paths.get(file))).trim();
    }

    private static void meet(String target) throws IOException {
        synchronized (BarrierFileSystem.class) { // the tasks of one job wait together; once met, never again
            if (passed) {
                return;
            }
            Path folder = Paths.get(System.getenv("INC_JOIN_BARRIER_RULE")).getParent();
            String me = "arrived-" + System.getenv("INC_JOIN_BARRIER_NAME");
            Files.write(folder.resolve(me), new byte[0]);
            System.out.println("BarrierFileSystem: waiting before " + target);
            System.out.flush();
            String limit = System.getenv("INC_JOIN_BARRIER_SECONDS");
            long deadline = System.currentTimeMillis() + 1000L * Long.parseLong(limit == null ? "300" : limit);
            while (true) {
                String[] names = folder.toFile().list((File dir, String name) -> name.startsWith("arrived-") && !name.equals(me));
                if (names != null && names.length > 0) {
                    System.out.println("BarrierFileSystem: met " + names[0]);
                    break;
                }
                if (System.currentTimeMillis() > deadline) {
                    System.out.println("BarrierFileSystem: timed out waiting");
                    break;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            System.out.flush();
            passed = true;
        }
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path f, FsPermission permission, boolean overwrite,
                                     int bufferSize, short replication, long blockSize, Progressable progress)
            throws IOException {
        String path = f.toString();
        if (!passed && path.endsWith(".parquet") && !path.contains("/_delta_log/")) {
            String rule = rule();
            if (rule != null && path.contains("/" + rule + "/")) {
                meet(path);
            }
        }
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }
}
