# tag::run[]
export SHOP_DB_PASSWORD=change-me TIDEMARK_SECRET="$(openssl rand -base64 32)"
./mvnw package
java -jar target/quickstart-0.0.1-SNAPSHOT.jar
# end::run[]
