package io.tidemark.spring.pages;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/**
 * A server-rendered application as such applications are written, with Boot's defaults (JPA's open
 * session in view on): Thymeleaf forms that post, a redirect after each post, and a page that loads
 * the entity through a plain Spring Data repository. Nothing in it knows of Tidemark: no
 * annotation, no token, header or cookie.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableJpaRepositories(considerNestedRepositories = true)
class PagesApplication {

  @Entity
  @Table(name = "owners")
  static class Owner {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    String name;

    public Long getId() {
      return id;
    }

    public String getName() {
      return name;
    }
  }

  interface Owners extends JpaRepository<Owner, Long> {}

  @Controller
  static class OwnerPages {
    private final Owners owners;

    OwnerPages(Owners owners) {
      this.owners = owners;
    }

    @GetMapping("/owners/new")
    String newOwner() {
      return "pages/new";
    }

    @PostMapping("/owners")
    String create(@RequestParam String name) {
      Owner owner = new Owner();
      owner.name = name;
      return "redirect:/owners/" + owners.save(owner).id;
    }

    @GetMapping("/owners/{id}")
    String show(@PathVariable long id, Model model) {
      model.addAttribute("owner", find(id));
      return "pages/owner";
    }

    @GetMapping("/owners/{id}/edit")
    String edit(@PathVariable long id, Model model) {
      model.addAttribute("owner", find(id));
      return "pages/edit";
    }

    @PostMapping("/owners/{id}/edit")
    String update(@PathVariable long id, @RequestParam String name) {
      Owner owner = find(id);
      owner.name = name;
      owners.save(owner);
      return "redirect:/owners/" + id;
    }

    private Owner find(long id) {
      return owners
          .findById(id)
          .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no owner " + id));
    }
  }
}
