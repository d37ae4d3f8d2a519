package io.tidemark.spring.autoconfigure;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;
import org.springframework.context.annotation.Condition;

/**
 * What Tidemark's compiled classes look up by name and which JDBC interfaces they proxy, read from
 * their bytecode: a lookup or proxy added later is found without anyone listing it.
 */
final class ReflectiveUses {

  private static final Pattern CLASS_NAME =
      Pattern.compile("([a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*");

  /** Class names passed as constants in a method that loads a class by name. */
  final Set<String> namesLookedUp = new TreeSet<>();

  /**
   * The java.sql and javax.sql class literals of each class (with its nested ones) that proxies.
   */
  final Set<String> jdbcTypesProxied = new TreeSet<>();

  private final Map<String, Set<String>> jdbcLiterals = new HashMap<>();
  private final Set<String> proxying = new TreeSet<>();

  static ReflectiveUses of(JavaClasses classes) {
    ReflectiveUses uses = new ReflectiveUses();
    for (JavaClass type : classes) {
      // Conditions run while the image is built; their outcome is fixed in it.
      if (!type.isAssignableTo(Condition.class)) {
        uses.read(type);
      }
    }
    for (String outer : uses.proxying) {
      uses.jdbcTypesProxied.addAll(uses.jdbcLiterals.getOrDefault(outer, Set.of()));
    }
    return uses;
  }

  private void read(JavaClass type) {
    String outer = type.getName().replaceFirst("\\$.*", "");
    Source source = type.getSource().orElseThrow();
    try (InputStream bytes = source.getUri().toURL().openStream()) {
      new ClassReader(bytes).accept(new Methods(outer), ClassReader.SKIP_FRAMES);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class Methods extends ClassVisitor {
    private final String outer;

    Methods(String outer) {
      super(SpringAsmInfo.ASM_VERSION);
      this.outer = outer;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      return new Calls(outer);
    }
  }

  private final class Calls extends MethodVisitor {
    private final String outer;
    private final Set<String> strings = new TreeSet<>();
    private boolean looksUp;

    Calls(String outer) {
      super(SpringAsmInfo.ASM_VERSION);
      this.outer = outer;
    }

    @Override
    public void visitLdcInsn(Object value) {
      if (value instanceof String string && CLASS_NAME.matcher(string).matches()) {
        strings.add(string);
      } else if (value instanceof Type literal
          && literal.getSort() == Type.OBJECT
          && literal.getInternalName().matches("javax?/sql/.*")) {
        jdbcLiterals.computeIfAbsent(outer, o -> new TreeSet<>()).add(literal.getClassName());
      }
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      String call = owner + "." + name;
      switch (call) {
        case "java/lang/Class.forName",
            "java/lang/ClassLoader.loadClass",
            "org/springframework/util/ClassUtils.isPresent",
            "org/springframework/util/ClassUtils.forName",
            "org/springframework/util/ClassUtils.resolveClassName" ->
            looksUp = true;
        case "java/lang/reflect/Proxy.newProxyInstance", "io/tidemark/internal/JdbcProxies.proxy" ->
            proxying.add(outer);
        default -> {}
      }
    }

    @Override
    public void visitEnd() {
      if (looksUp) {
        namesLookedUp.addAll(strings);
      }
    }
  }
}
