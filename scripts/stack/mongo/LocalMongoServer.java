import de.bwaldvogel.mongo.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreTool;

/**
 * The local stack's MongoDB-wire engine: mongo-java-server on its H2 file backend.
 *
 * <p>Why a launcher of our own: the shipped main binds 127.0.0.1:27017 and keeps H2's background
 * commit (about once a second), so a kill of the process loses the last second of acknowledged
 * writes. This one binds the configured address and data file, commits every write before it is
 * acknowledged ({@link DurableH2Backend}), serves the filters our repositories use from indexes
 * ({@link EqualityUniqueIndex}, {@link SecondaryIndex}), and compacts the file when it starts.
 *
 * <pre>java -cp CLASSPATH LocalMongoServer HOST PORT DATA_FILE</pre>
 */
public final class LocalMongoServer {
  private LocalMongoServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LocalMongoServer HOST PORT DATA_FILE");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    Path file = Path.of(args[2]).toAbsolutePath();
    Files.createDirectories(file.getParent());
    compact(file);

    MVStore store = new MVStore.Builder()
        .fileName(file.toString())
        .autoCommitDisabled() // no background commit: DurableH2Backend commits each write itself
        .open();
    // Space of a chunk with no live data is reused at once instead of after 45 s. H2 keeps old
    // chunks to survive an OS crash that loses unflushed writes; a killed process loses nothing
    // the OS already has, and at one commit per write the default let the file grow about 8 MB/s.
    store.setRetentionTime(0);
    DurableH2Backend backend = new DurableH2Backend(store);
    MongoServer server = new MongoServer(backend);
    server.bind(host, port);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow(); // closes the clients, then the backend: commit, close the file
      System.out.println("stopped");
    }, "local-mongo-stop"));
    System.out.printf("listening on %s:%d, data file %s (%d MB)%n", host, port, file.getFileName(), file.toFile().length() >> 20);
  }

  /**
   * The file only grows while the engine runs (freed space is reused, never returned), so each
   * start rewrites it with the live data only: about 0.8 s for 86 MB live out of 271 MB.
   */
  private static void compact(Path file) {
    if (!Files.exists(file)) {
      return;
    }
    long started = System.nanoTime();
    long before = file.toFile().length();
    MVStoreTool.compact(file.toString(), false);
    System.out.printf("compacted the data file: %d -> %d MB in %d ms%n",
        before >> 20, file.toFile().length() >> 20, (System.nanoTime() - started) / 1_000_000);
  }
}
