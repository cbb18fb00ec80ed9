// The fault injector of tests/integration/test_ledger.py: Hadoop's local file system, except that it halts the
// JVM (as SIGKILL would: no finally block, no shutdown hook) inside a job's commit, between two of the renames
// that move the staged partitions of a dynamic partition overwrite into a table. The fault driver sets it as
// fs.file.impl of its own Spark only, and arms it by writing the rule into the file INC_JOIN_HALT_RULE names:
//
//   <table directory name>:<k>   halt when about to move the (k+1)-th staged partition into that table, counting
//                                from when the rule was written (k = 0: before the first)
package incjoin.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

public class HaltingFileSystem extends LocalFileSystem {
    private static int moved = 0;

    private static String rule() throws IOException {
        String file = System.getenv("INC_JOIN_HALT_RULE");
        if (file == null || !Files.exists(Paths.get(file))) {
            return null;
        }
        return new String(Files.readAllBytes(Paths.get(file))).trim();
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        // out of the job's staging directory into the table (the task outputs move inside it first)
        boolean intoTable = src.toString().contains(".spark-staging-") && !dst.toString().contains(".spark-staging-");
        String rule = intoTable ? rule() : null;
        if (rule != null) {
            String[] parts = rule.split(":");
            if (dst.toString().contains("/" + parts[0] + "/")) {
                synchronized (HaltingFileSystem.class) {
                    if (moved == Integer.parseInt(parts[1])) {
                        System.out.println("HaltingFileSystem: halt before moving " + src + " to " + dst);
                        System.out.flush();
                        Runtime.getRuntime().halt(137);
                    }
                    moved++;
                }
            }
        }
        return super.rename(src, dst);
    }
}
