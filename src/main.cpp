#include "cli/app.hpp"

int main(int argc, char** argv) {
    return cgbench::cli::main(argc, argv);
}
