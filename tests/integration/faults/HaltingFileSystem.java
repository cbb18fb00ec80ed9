// The fault injector of the run-ledger tests (tests/integration/test_ledger.py, tests/formats/test_format_ledger.py):
// Hadoop's local file system, except that it halts the JVM (as SIGKILL would: no finally block, no shutdown hook)
// at one chosen moment of a write. The fault driver sets it as fs.file.impl of its own Spark only, and arms it by
// writing the rule into the file INC_JOIN_HALT_RULE names:
//
//   <table directory name>:<k>          halt when about to move the (k+1)-th staged partition of a dynamic
//                                       partition overwrite into that table (parquet's commit of renames)
//   <table directory name>:data:<k>     halt when about to create the (k+1)-th data file (.parquet) in that table:
//                                       a Delta or Iceberg write before its commit
//   <table directory name>:commit:<k>   halt when about to write the (k+1)-th commit of that table: a Delta log
//                                       entry (_delta_log/<version>.json) or an Iceberg metadata file
//                                       (metadata/<n>-<id>.metadata.json), after every data file
//
// counting from when the rule was written (k = 0: before the first).
package incjoin.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

public class HaltingFileSystem extends LocalFileSystem {
    private static int seen = 0;

    private static String[] rule() throws IOException {
        String file = System.getenv("INC_JOIN_HALT_RULE");
        if (file == null || !Files.exists(Paths.get(file))) {
            return null;
        }
        String[] parts = new String(Files.readAllBytes(Paths.get(file))).trim().split(":");
        return parts.length == 2 ? new String[] {parts[0], "move", parts[1]} : parts;
    }

    private static boolean isCommit(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return (path.contains("/_delta_log/") && name.matches("\\d+\\.json"))
            || (path.contains("/metadata/") && name.endsWith(".metadata.json"));
    }

    private static String kindOf(String path, boolean renamedFromStaging) {
        if (renamedFromStaging) {
            return "move";
        }
        if (isCommit(path)) {
            return "commit";
        }
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.endsWith(".parquet") && !name.startsWith(".") && !path.contains("/_delta_log/") ? "data" : null;
    }

    private static void maybeHalt(String kind, String path, String what) throws IOException {
        String[] rule = kind == null ? null : rule();
        if (rule == null || !rule[1].equals(kind) || !path.contains("/" + rule[0] + "/")) {
            return;
        }
        synchronized (HaltingFileSystem.class) {
            if (seen == Integer.parseInt(rule[2])) {
                System.out.println("HaltingFileSystem: halt before " + what + " " + path);
                System.out.flush();
                Runtime.getRuntime().halt(137);
            }
            seen++;
        }
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        // out of the job's staging directory into the table (the task outputs move inside it first)
        boolean fromStaging = src.toString().contains(".spark-staging-") && !dst.toString().contains(".spark-staging-");
        String kind = kindOf(dst.toString(), fromStaging);
        maybeHalt(kind, dst.toString(), "moving " + src + " to");
        return super.rename(src, dst);
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        String kind = kindOf(f.toString(), false);
        maybeHalt(kind, f.toString(), "creating");
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }
}
